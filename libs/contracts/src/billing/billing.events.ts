import { IsIn, IsInt, IsISO8601, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { ACCOUNT_ID_PATTERN, MAX_INT4 } from '../common/validation';
import { defineEvent, STREAMS } from '../messaging/event';
import { NUMBER_ID_PATTERN } from '../numbers/number.dto';

/**
 * Account-level billing events (docs/adr/0131-auto-top-up-and-stripe.md). Each names the numbers that opted in
 * (`webhook_events`) when it happened: webhook-dispatcher delivers it to each of them, as one webhook per number.
 * Never carries card data nor the payment processor's message.
 */
export class BillingEventRecipients {
  @IsString() @Matches(ACCOUNT_ID_PATTERN) account_id: string;
  /** Active numbers of the account with a webhook_url that listed this event type, when it happened. */
  @IsString({ each: true }) @Matches(NUMBER_ID_PATTERN, { each: true }) number_ids: string[];
}

/** The balance went below the low-balance threshold (once per crossing). */
export class BalanceLowData extends BillingEventRecipients {
  /** The balance after the charge that crossed, in cents (rounded down; may be negative). */
  @IsInt() @Min(-Number.MAX_SAFE_INTEGER) @Max(Number.MAX_SAFE_INTEGER) balance_cents: number;
  @IsInt() @Min(0) @Max(MAX_INT4) threshold_cents: number;
  @IsISO8601() occurred_at: string;
}

/** Why it failed: the processor declined the card. (An unreachable processor leaves the attempt pending: it is asked again.) */
export const TOP_UP_FAILURE_REASONS = ['declined'] as const;
export type TopUpFailureReason = (typeof TOP_UP_FAILURE_REASONS)[number];

/** An auto-top-up payment failed. */
export class TopUpFailedData extends BillingEventRecipients {
  @IsUUID() attempt_id: string;
  @IsInt() @Min(0) @Max(MAX_INT4) amount_cents: number;
  @IsIn(TOP_UP_FAILURE_REASONS) reason: TopUpFailureReason;
  /** When the payment was attempted (the attempt's start). */
  @IsISO8601() attempted_at: string;
  @IsISO8601() occurred_at: string;
}

export const BalanceLowEvent = defineEvent('billing.balance_low', STREAMS.billing, BalanceLowData);
export const TopUpFailedEvent = defineEvent('billing.top_up_failed', STREAMS.billing, TopUpFailedData);
