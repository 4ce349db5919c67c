import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  LOST_ITEM_REPORT_OUTCOME,
  LostItemBody,
  MAX_TEXT_LENGTH,
  RESERVED_ANALYSIS_FIELD_NAMES,
  sentimentOf,
  summaryOf,
} from '@switchboard/contracts';
import type {
  ProviderCallAnalysis,
  ProviderCallReport,
  ProviderCallStart,
  ProviderLostItem,
  ProviderTranscriptTurn,
} from '../telephony/provider-call-report';

/** A call report without its audio (the recording joins it separately, docs/adr/0083). */
export type ReportWithoutAudio = Omit<ProviderCallReport, 'recording'>;

/** Outcomes are short lower-case labels; anything else an agent gathered is not taken as one. */
const LABEL = /^[a-z][a-z0-9_]{0,63}$/;
const CALL_SID = /^CA[0-9a-f]{32}$/;
/** The simulated calls' bounds (SimulateProviderCallBody): 500 turns of at most MAX_TEXT_LENGTH characters. */
const MAX_TURNS = 500;
const MAX_TURN_TEXT = MAX_TEXT_LENGTH;

/**
 * How a Retell call ended, in our outcome words (docs/adr/0083), when the agent's own analysis gave no outcome.
 * Retell's `disconnection_reason` values: https://docs.retellai.com/api-references (call object).
 */
export function outcomeOfDisconnection(reason: unknown): string {
  if (reason === 'call_transfer') return 'transferred';
  if (reason === 'voicemail_reached') return 'voicemail';
  if (typeof reason === 'string' && reason.startsWith('dial_')) return 'missed';
  if (typeof reason === 'string' && reason.startsWith('error')) return 'error';
  return 'answered';
}

/**
 * Retell's `call_analyzed` (the call and its analysis) as our call report, or why it cannot be one. The call SID is
 * Twilio's when Retell knows it (the call came in on our Twilio number: `telephony_identifier.twilio_call_sid`, or the
 * `twilio_call_sid` we put in its metadata), so Twilio's recording of the same call meets it; else Retell's call id.
 */
export function retellCallReport(payload: Record<string, unknown>): ReportWithoutAudio | { unusable: string } {
  const start = retellCallStart(payload);
  if ('unusable' in start) return start;
  const call = payload.call as Record<string, unknown>;
  const callSid = start.call_sid;
  const to = start.to;
  const from = call.from_number;
  const startMs = start.started_at.getTime();
  const durationMs =
    typeof call.duration_ms === 'number'
      ? call.duration_ms
      : typeof call.end_timestamp === 'number'
        ? call.end_timestamp - startMs
        : 0;
  const analysis = (call.call_analysis as RetellCallAnalysis | undefined) ?? {};
  const custom = isRecord(analysis.custom_analysis_data) ? analysis.custom_analysis_data : {};
  const outcome =
    typeof custom.outcome === 'string' && LABEL.test(custom.outcome)
      ? custom.outcome
      : outcomeOfDisconnection(call.disconnection_reason);
  return {
    call_sid: callSid,
    to,
    caller: typeof from === 'string' ? from.slice(0, 64) : 'anonymous',
    direction: call.direction === 'outbound' ? 'outbound' : 'inbound',
    status: 'completed',
    outcome,
    duration_sec: Math.max(0, Math.round(durationMs / 1000)),
    started_at: start.started_at,
    transcript: transcriptOf(call.transcript_object),
    lost_item: outcome === LOST_ITEM_REPORT_OUTCOME ? lostItemOf(custom.lost_item) : null,
    analysis: isRecord(call.call_analysis) ? analysisOf(analysis, custom) : null,
  };
}

/**
 * The call of any Retell event as a call start (`call_started`, and the start every later event repeats), or why it
 * cannot be one. The call SID is Twilio's when Retell knows it (the call came in on our Twilio number:
 * `telephony_identifier.twilio_call_sid`, or the `twilio_call_sid` we put in its metadata), so Twilio's events and
 * recording of the same call meet it; else Retell's call id.
 */
export function retellCallStart(payload: Record<string, unknown>): ProviderCallStart | { unusable: string } {
  const call = payload.call as Record<string, unknown> | undefined;
  if (!call || typeof call !== 'object') return { unusable: 'no call in the event' };
  const to = call.to_number;
  const from = call.from_number;
  const start = call.start_timestamp;
  if (typeof to !== 'string' || !/^\+[1-9]\d{6,14}$/.test(to)) return { unusable: 'no usable to_number' };
  if (typeof start !== 'number' || !Number.isFinite(start)) return { unusable: 'no usable start_timestamp' };
  const telephony = call.telephony_identifier as { twilio_call_sid?: unknown } | undefined;
  const metadata = call.metadata as { twilio_call_sid?: unknown } | undefined;
  const twilioSid = [telephony?.twilio_call_sid, metadata?.twilio_call_sid].find(
    (sid): sid is string => typeof sid === 'string' && CALL_SID.test(sid),
  );
  const callSid = twilioSid ?? (typeof call.call_id === 'string' ? call.call_id.slice(0, 64) : undefined);
  if (!callSid) return { unusable: 'no call id' };
  return {
    call_sid: callSid,
    to,
    caller: typeof from === 'string' ? from.slice(0, 64) : 'anonymous',
    direction: call.direction === 'outbound' ? 'outbound' : 'inbound',
    started_at: new Date(start),
  };
}

/**
 * Retell's `transcript_updated`: the call's start (as `retellCallStart`) and every turn so far, in our roles (the call
 * object's `transcript_object` holds the whole transcript each time).
 */
export function retellTranscriptUpdate(
  payload: Record<string, unknown>,
): { start: ProviderCallStart; turns: ProviderTranscriptTurn[] } | { unusable: string } {
  const start = retellCallStart(payload);
  if ('unusable' in start) return start;
  return { start, turns: transcriptOf((payload.call as Record<string, unknown>).transcript_object) ?? [] };
}

/** Retell's `call_analysis` (its call object), as far as we read it. */
interface RetellCallAnalysis {
  call_summary?: unknown;
  user_sentiment?: unknown;
  call_successful?: unknown;
  custom_analysis_data?: unknown;
}

/**
 * Retell's post-call analysis as ours: `user_sentiment` (`Positive`, `Neutral`, `Negative`, `Unknown`) lower-cased,
 * and the custom values but the ones Switchboard reads itself (`outcome`, `lost_item`), unchecked yet.
 */
function analysisOf(analysis: RetellCallAnalysis, custom: Record<string, unknown>): ProviderCallAnalysis {
  const values = Object.fromEntries(
    Object.entries(custom).filter(([name]) => !(RESERVED_ANALYSIS_FIELD_NAMES as readonly string[]).includes(name)),
  );
  return {
    summary: summaryOf(analysis.call_summary),
    sentiment: sentimentOf(analysis.user_sentiment),
    successful: typeof analysis.call_successful === 'boolean' ? analysis.call_successful : null,
    custom: values,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function transcriptOf(turns: unknown): ProviderTranscriptTurn[] | null {
  if (!Array.isArray(turns) || turns.length === 0) return null;
  return turns
    .filter(
      (turn): turn is { role: unknown; content: string } =>
        typeof (turn as { content?: unknown })?.content === 'string',
    )
    .slice(0, MAX_TURNS)
    .map((turn) => ({ role: turn.role === 'user' ? 'caller' : 'agent', text: turn.content.slice(0, MAX_TURN_TEXT) }));
}

/** What the agent gathered about a lost item, when it is what lost-and-found takes (LostItemBody's rules). */
function lostItemOf(value: unknown): ProviderLostItem | null {
  if (!value || typeof value !== 'object') return null;
  const item = plainToInstance(LostItemBody, value);
  if (validateSync(item, { whitelist: true }).length > 0) return null;
  return { ...item };
}

/** The Twilio call statuses that mean the agent never answered: reported by Twilio, not by the agent platform. */
export const UNANSWERED_STATUSES = ['busy', 'no-answer', 'failed', 'canceled'] as const;

/**
 * Twilio's status callback as our call report, for a call the agent never answered; null for any other status (an
 * answered call is the agent platform's to report, with its transcript).
 */
export function twilioStatusReport(params: Record<string, unknown>, receivedAt: Date): ReportWithoutAudio | null {
  const status = params.CallStatus;
  if (typeof status !== 'string' || !(UNANSWERED_STATUSES as readonly string[]).includes(status)) return null;
  const sid = params.CallSid;
  const to = params.To;
  if (typeof sid !== 'string' || !CALL_SID.test(sid) || typeof to !== 'string') return null;
  const at = typeof params.Timestamp === 'string' ? new Date(params.Timestamp) : receivedAt;
  return {
    call_sid: sid,
    to,
    caller: typeof params.From === 'string' && params.From ? params.From.slice(0, 64) : 'anonymous',
    direction: 'inbound',
    status,
    outcome: 'missed',
    duration_sec: 0,
    started_at: Number.isNaN(at.getTime()) ? receivedAt : at,
    transcript: null,
    lost_item: null,
  };
}

/** The Twilio call statuses that mean the call is ringing or answered: it goes on, reported live (docs/live-calls.md). */
export const LIVE_STATUSES = ['ringing', 'in-progress'] as const;

/** Twilio's status callback of a call ringing or answered as its start; null for any other status. */
export function twilioCallStart(params: Record<string, unknown>, receivedAt: Date): ProviderCallStart | null {
  const status = params.CallStatus;
  if (typeof status !== 'string' || !(LIVE_STATUSES as readonly string[]).includes(status)) return null;
  const sid = params.CallSid;
  const to = params.To;
  if (typeof sid !== 'string' || !CALL_SID.test(sid) || typeof to !== 'string') return null;
  const at = typeof params.Timestamp === 'string' ? new Date(params.Timestamp) : receivedAt;
  return {
    call_sid: sid,
    to,
    caller: typeof params.From === 'string' && params.From ? params.From.slice(0, 64) : 'anonymous',
    direction: 'inbound',
    started_at: Number.isNaN(at.getTime()) ? receivedAt : at,
  };
}
