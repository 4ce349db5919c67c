import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ACCOUNT_ID_PATTERN, MAX_INT4 } from '../common/validation';
import { defineEvent, STREAMS } from '../messaging/event';
import { AnalysisFieldBody } from './analysis-field.dto';
import { MAX_CALL_MINUTES_LIMIT, NUMBER_ID_PATTERN, NUMBER_STATUSES, type NumberStatus } from './number.dto';

/**
 * The state of a number after a change, as other services keep it: who owns a phone number (calls-media), where
 * its webhooks go (webhook-dispatcher). Never carries the webhook secret. Consumers keep the newest `version`.
 */
export class NumberStateChanged {
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsString() phone_number: string;
  @IsString() business_phone: string;
  @IsIn(NUMBER_STATUSES) status: NumberStatus;
  @IsOptional() @IsString() webhook_url: string | null;
  /** Whether the AI agent answers calls to it now (false while past_due: paused). */
  @IsBoolean() answering: boolean;
  /**
   * How long a call to it may go without its end report before it is closed as `incomplete` (docs/live-calls.md).
   * Absent in events written before numbers had it: read as DEFAULT_MAX_CALL_MINUTES.
   */
  @IsOptional() @IsInt() @Min(1) @Max(MAX_CALL_MINUTES_LIMIT) max_call_minutes?: number;
  /** Grows with every change of the number, so a consumer can ignore an older state delivered late. */
  @Matches(/^\d+$/) version: string;
  @IsISO8601() changed_at: string;
}

export const NumberProvisionedEvent = defineEvent('number.provisioned', STREAMS.numbers, NumberStateChanged);
export const NumberUpdatedEvent = defineEvent('number.updated', STREAMS.numbers, NumberStateChanged);
export const NumberReleasedEvent = defineEvent('number.released', STREAMS.numbers, NumberStateChanged);

/**
 * The analysis fields a number's agent settings declare, after each change of the settings: calls-media keeps the
 * newest (`version`, the settings' own) to check each call's `analysis.custom` against (docs/call-analysis.md).
 */
export class NumberAnalysisFieldsChanged {
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => AnalysisFieldBody) analysis_fields: AnalysisFieldBody[];
  @IsInt() @Min(1) @Max(MAX_INT4) version: number;
  @IsISO8601() changed_at: string;
}

export const NumberAnalysisFieldsChangedEvent = defineEvent(
  'number.analysis_fields.changed',
  STREAMS.numbers,
  NumberAnalysisFieldsChanged,
);
