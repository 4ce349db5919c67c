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
  call: {
    call_sid: string;
    caller: string;
    outcome: string;
    duration_sec: number;
    started_at: string;
    has_recording: boolean;
    has_transcript: boolean;
  };
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
