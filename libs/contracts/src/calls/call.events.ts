import { IsBoolean, IsInt, IsISO8601, IsString, Matches, Min } from 'class-validator';
import { ACCOUNT_ID_PATTERN } from '../common/validation';
import { defineEvent, STREAMS } from '../messaging/event';
import { NUMBER_ID_PATTERN } from '../numbers/number.dto';

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
  @IsInt() @Min(0) duration_sec: number;
  @IsISO8601() started_at: string;
  @IsBoolean() has_recording: boolean;
  @IsBoolean() has_transcript: boolean;
}

export const CallCompletedEvent = defineEvent('call.completed', STREAMS.calls, CallCompletedData);
