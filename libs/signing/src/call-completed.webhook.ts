/**
 * The public `call.completed` webhook body (spec part 6), exactly: what a receiver gets and what the signature
 * covers. Here, beside `verify`, because receivers use it; webhook-dispatcher builds it from the internal
 * `CallCompletedData`, which carries more.
 */
export const CALL_COMPLETED_WEBHOOK_TYPE = 'call.completed';

export interface CallCompletedWebhookBody {
  type: typeof CALL_COMPLETED_WEBHOOK_TYPE;
  number_id: string;
  occurred_at: string;
  call: CallWebhookCall;
}

/** A call that ended, as `call.completed` and `call.updated` carry it. */
export interface CallWebhookCall {
  call_sid: string;
  caller: string;
  outcome: string;
  duration_sec: number;
  started_at: string;
  has_recording: boolean;
  has_transcript: boolean;
  /** The agent's analysis of the call, as `GET /v1/calls/{call_id}` shows it (an addition to spec part 6). */
  analysis: {
    summary: string | null;
    sentiment: 'positive' | 'neutral' | 'negative' | 'unknown';
    successful: boolean | null;
    custom: Record<string, string | number | boolean>;
  };
  /**
   * The call's status (an addition to spec part 6): `completed`, or `incomplete` when the provider's end report did
   * not come within the number's `max_call_minutes`.
   */
  status: string;
}

/**
 * `call.started` and `call.updated`: sent only to numbers that list them in their `webhook_events`. `call.started`
 * when a call begins (`occurred_at` is its `started_at`); `call.updated` once, when a call closed as `incomplete`
 * gets its late end report: the call as corrected, and what it was before.
 */
export const CALL_STARTED_WEBHOOK_TYPE = 'call.started';
export const CALL_UPDATED_WEBHOOK_TYPE = 'call.updated';

export interface CallStartedWebhookBody {
  type: typeof CALL_STARTED_WEBHOOK_TYPE;
  number_id: string;
  occurred_at: string;
  call: { call_sid: string; caller: string; direction: string; started_at: string };
}

export interface CallUpdatedWebhookBody {
  type: typeof CALL_UPDATED_WEBHOOK_TYPE;
  number_id: string;
  occurred_at: string;
  call: CallWebhookCall;
  /** The status and talk time the call had before (and was billed with). */
  previous: { status: string; duration_sec: number };
}

/** `webhook.test`: sent on demand (`POST /v1/numbers/{id}/webhook-test`), signed like any other event. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

export interface WebhookTestBody {
  type: typeof WEBHOOK_TEST_TYPE;
  number_id: string;
  occurred_at: string;
}

/** `number.past_due` and `number.released`: the number's state changed (sent to its own webhook). */
export const NUMBER_PAST_DUE_TYPE = 'number.past_due';
export const NUMBER_RELEASED_TYPE = 'number.released';

export interface NumberWebhookBody {
  type: typeof NUMBER_PAST_DUE_TYPE | typeof NUMBER_RELEASED_TYPE;
  number_id: string;
  occurred_at: string;
  number: { phone_number: string; status: 'past_due' | 'released' };
}

/**
 * `billing.balance_low` and `billing.top_up_failed`: account-level events, sent to each number of the account that
 * listed them in its `webhook_events` (docs/adr/0131-auto-top-up-and-stripe.md). `number_id` is the receiving number.
 */
export const BILLING_BALANCE_LOW_TYPE = 'billing.balance_low';
export const BILLING_TOP_UP_FAILED_TYPE = 'billing.top_up_failed';

export interface BalanceLowWebhookBody {
  type: typeof BILLING_BALANCE_LOW_TYPE;
  number_id: string;
  occurred_at: string;
  /** The balance after the charge that crossed below the threshold, in cents (may be negative). */
  balance: { balance_cents: number; threshold_cents: number };
}

export interface TopUpFailedWebhookBody {
  type: typeof BILLING_TOP_UP_FAILED_TYPE;
  number_id: string;
  occurred_at: string;
  /** No card data: the amount asked, why it failed, and when the payment was attempted. */
  top_up: { attempt_id: string; amount_cents: number; reason: 'declined'; attempted_at: string };
}

export type BillingWebhookBody = BalanceLowWebhookBody | TopUpFailedWebhookBody;
