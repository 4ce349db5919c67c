import { retellSignature } from '../provider-signatures';
import type { PhoneCallResponse } from 'retell-sdk/resources/call';

/**
 * Retell's call webhooks as its reference shows them (https://docs.retellai.com/features/webhook: `event` and the
 * `call` object, the same object as Get Call), for tests: the fields Switchboard reads, with realistic values.
 */
export interface RetellCallOptions {
  callId?: string;
  twilioCallSid?: string;
  from: string;
  to: string;
  startedAt?: Date;
  durationMs?: number;
  transcript?: { role: 'agent' | 'user'; content: string }[];
  disconnectionReason?: string;
  customAnalysis?: Record<string, unknown>;
}

export function retellCallEvent(event: 'call_started' | 'call_ended' | 'call_analyzed', options: RetellCallOptions) {
  const start = (options.startedAt ?? new Date(Date.now() - 120_000)).getTime();
  const duration = options.durationMs ?? 95_000;
  return {
    event,
    call: {
      call_type: 'phone_call',
      call_id: options.callId ?? `call_${Math.random().toString(16).slice(2)}`,
      agent_id: 'agent_0123456789abcdef',
      call_status: 'ended',
      from_number: options.from,
      to_number: options.to,
      direction: 'inbound',
      start_timestamp: start,
      end_timestamp: start + duration,
      duration_ms: duration,
      transcript: (options.transcript ?? [])
        .map((turn) => `${turn.role === 'user' ? 'User' : 'Agent'}: ${turn.content}`)
        .join('\n'),
      transcript_object: (options.transcript ?? []).map((turn) => ({ ...turn, words: [] })),
      recording_url: 'https://dxc03zgurdly9.cloudfront.net/recording.wav',
      disconnection_reason: options.disconnectionReason ?? 'user_hangup',
      telephony_identifier: options.twilioCallSid ? { twilio_call_sid: options.twilioCallSid } : undefined,
      metadata: options.twilioCallSid ? { twilio_call_sid: options.twilioCallSid } : {},
      call_analysis: {
        call_summary: 'The caller placed an order.',
        user_sentiment: 'Positive',
        call_successful: true,
        in_voicemail: false,
        custom_analysis_data: options.customAnalysis ?? {},
      },
    },
  };
}

/** The body and headers of a signed Retell webhook. */
export function signedRetellWebhook(
  payload: unknown,
  apiKey: string,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload);
  return { body, headers: { 'content-type': 'application/json', 'x-retell-signature': retellSignature(body, apiKey) } };
}

/** A Retell event of a call still going on: its `call` object checked against the SDK's published type. */
export interface RetellLiveEvent {
  event: 'call_started' | 'transcript_updated';
  call: PhoneCallResponse;
}

/**
 * Retell's `call_started` and `transcript_updated` as its webhook reference describes them: the call object while the
 * call is `ongoing` (no end, no analysis), `transcript_updated` with every turn so far in `transcript_object`.
 */
export function retellLiveEvent(
  event: RetellLiveEvent['event'],
  options: Omit<RetellCallOptions, 'durationMs' | 'disconnectionReason' | 'customAnalysis'> & { callId: string },
): RetellLiveEvent {
  const turns = event === 'transcript_updated' ? (options.transcript ?? []) : [];
  return {
    event,
    call: {
      call_type: 'phone_call',
      call_id: options.callId,
      agent_id: 'agent_0123456789abcdef',
      agent_version: 1,
      call_status: 'ongoing',
      from_number: options.from,
      to_number: options.to,
      direction: 'inbound',
      start_timestamp: (options.startedAt ?? new Date()).getTime(),
      transcript: turns.map((turn) => `${turn.role === 'user' ? 'User' : 'Agent'}: ${turn.content}`).join('\n'),
      transcript_object: turns.map((turn) => ({ ...turn, words: [] })),
      telephony_identifier: options.twilioCallSid ? { twilio_call_sid: options.twilioCallSid } : undefined,
      metadata: options.twilioCallSid ? { twilio_call_sid: options.twilioCallSid } : {},
    },
  };
}
