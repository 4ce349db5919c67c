import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { CALL_SENTIMENTS, type CallSentiment, type CustomAnalysisValue } from './call-analysis';
import { ACCOUNT_ID_PATTERN, MAX_INT4 } from '../common/validation';
import { defineEvent, STREAMS } from '../messaging/event';
import { NUMBER_ID_PATTERN } from '../numbers/number.dto';

/** The agent's analysis of the call, as `Call.analysis` shows it. */
export class CallAnalysisData {
  @IsOptional() @IsString() summary: string | null;
  @IsIn(CALL_SENTIMENTS) sentiment: CallSentiment;
  @IsOptional() @IsBoolean() successful: boolean | null;
  @IsObject() custom: Record<string, CustomAnalysisValue>;
}

/**
 * A completed call (spec part 6 plus what internal consumers need). Published by calls-media through its outbox
 * with the envelope id derived from the call SID, consumed by numbers-billing (talk time) and
 * webhook-dispatcher (the public `call.completed` webhook, whose body is exactly the spec's).
 */
export class CallCompletedData {
  @IsString() call_sid: string;
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
  @IsString() phone_number: string;
  @IsString() caller: string;
  @IsString() direction: string;
  @IsString() status: string;
  @IsString() outcome: string;
  @IsInt() @Min(0) @Max(MAX_INT4) duration_sec: number;
  @IsISO8601() started_at: string;
  @IsBoolean() has_recording: boolean;
  @IsBoolean() has_transcript: boolean;
  /** Absent in events written before calls had an analysis: read as the empty analysis. */
  @IsOptional() @IsObject() @ValidateNested() @Type(() => CallAnalysisData) analysis?: CallAnalysisData;
}

export const CallCompletedEvent = defineEvent('call.completed', STREAMS.calls, CallCompletedData);

/** The outcome an agent ends a call with when the caller reported a lost item (docs/adr/0079). */
export const LOST_ITEM_REPORT_OUTCOME = 'lost_item_report';

/**
 * A call whose agent took a lost-item report (outcome `lost_item_report`, with details). Ids and the category
 * only: the caller's phone, name and words stay in calls-media, read by lostfound through
 * `LostItemReportRpc` (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md). Envelope id derived from the call SID.
 */
export class LostItemReportedData {
  @IsString() call_sid: string;
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
  @IsString() category: string;
  @IsISO8601() reported_at: string;
}

export const LostItemReportedEvent = defineEvent('call.lost_item_reported', STREAMS.calls, LostItemReportedData);

/**
 * A call began: the provider reported its start while it is still going (docs/live-calls.md). Published by
 * calls-media through its outbox, at most once per call SID (envelope id derived from it), only for a call whose
 * number has an owner when it starts; webhook-dispatcher sends it as the opt-in `call.started` webhook.
 */
export class CallStartedData {
  @IsString() call_sid: string;
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
  @IsString() phone_number: string;
  @IsString() caller: string;
  @IsString() direction: string;
  @IsISO8601() started_at: string;
}

export const CallStartedEvent = defineEvent('call.started', STREAMS.calls, CallStartedData);

/**
 * A call closed as `incomplete` (no end report within its number's `max_call_minutes`) whose late end report then
 * came: the call as it is now, and the status and duration it was billed with before (docs/live-calls.md). Once per
 * call (envelope id derived from the call SID). numbers-billing adjusts the talk time by the difference, never
 * charging the call a second time; webhook-dispatcher sends the opt-in `call.updated` webhook.
 */
export class CallUpdatedData extends CallCompletedData {
  @IsString() previous_status: string;
  @IsInt() @Min(0) @Max(MAX_INT4) previous_duration_sec: number;
}

export const CallUpdatedEvent = defineEvent('call.updated', STREAMS.calls, CallUpdatedData);

/** The status of a call the provider reported the start of and not yet the end (docs/live-calls.md). */
export const CALL_IN_PROGRESS = 'in_progress';
/** The status of a call closed without its end report, `max_call_minutes` after it started (docs/live-calls.md). */
export const CALL_INCOMPLETE = 'incomplete';
