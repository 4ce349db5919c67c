import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { ACCOUNT_ID_PATTERN, MAX_INT4 } from '../common/validation';
import { defineEvent, STREAMS } from '../messaging/event';

export const ENDPOINT_DISABLED_REASONS = ['gone', 'failing'] as const;
export type EndpointDisabledReason = (typeof ENDPOINT_DISABLED_REASONS)[number];

/**
 * A number's webhook endpoint was disabled (docs/adr/0075-webhook-delivery.md): it answered 410 Gone, or every
 * attempt failed for the documented run. Deliveries wait until the account enables it again. Carries no URL.
 */
export class EndpointDisabledData {
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  @IsString() @Matches(/^num_[1-9]\d{0,17}$/) number_id: string;
  @IsIn(ENDPOINT_DISABLED_REASONS) reason: EndpointDisabledReason;
  @IsInt() @Min(0) @Max(MAX_INT4) consecutive_failures: number;
  @IsOptional() @IsISO8601() failing_since: string | null;
  @IsISO8601() disabled_at: string;
}

export const EndpointDisabledEvent = defineEvent('webhook.endpoint_disabled', STREAMS.webhooks, EndpointDisabledData);
