import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';
import { ACCOUNT_ID_PATTERN } from '../common/validation';
import { defineEvent, STREAMS } from '../messaging/event';
import { NUMBER_ID_PATTERN, NUMBER_STATUSES, type NumberStatus } from './number.dto';

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
  /** Grows with every change of the number, so a consumer can ignore an older state delivered late. */
  @Matches(/^\d+$/) version: string;
  @IsISO8601() changed_at: string;
}

export const NumberProvisionedEvent = defineEvent('number.provisioned', STREAMS.numbers, NumberStateChanged);
export const NumberUpdatedEvent = defineEvent('number.updated', STREAMS.numbers, NumberStateChanged);
export const NumberReleasedEvent = defineEvent('number.released', STREAMS.numbers, NumberStateChanged);
