import { ApiProperty } from '../common/api-property';
import { CallAnalysisView } from '../calls/call-analysis';
import type { WebhookEventType } from './webhook-events.dto';

/**
 * The body of each webhook a number's `webhook_url` receives, as the public OpenAPI description's `webhooks` section
 * declares it (and so the SDK's `WebhookEvent<type>`). The dispatcher builds these bodies with libs/signing's
 * interfaces (`CallCompletedWebhookBody`, ...); a test in the gateway checks both agree, property for property.
 * docs/webhooks.md shows each one.
 */
const NUMBER_ID = { example: 'num_1', description: 'The number whose webhook this is (the receiving number).' };
const OCCURRED_AT = { format: 'date-time', description: 'When the event happened.' };

export class CallCompletedWebhookCall {
  @ApiProperty({ example: 'CA3f2b...', description: 'The call id, as `GET /v1/calls/{call_id}` takes it.' })
  call_sid: string;
  @ApiProperty({ example: '+14155550199', description: "The caller's number (E.164), as the provider gave it." })
  caller: string;
  @ApiProperty({ example: 'order_placed', description: 'How the agent ended the call.' }) outcome: string;
  @ApiProperty({ minimum: 0, description: 'Talk time in seconds.' }) duration_sec: number;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty({ description: 'Whether `GET /v1/calls/{call_id}/recording` has the audio.' }) has_recording: boolean;
  @ApiProperty({ description: 'Whether `GET /v1/calls/{call_id}/transcript` has the turns.' }) has_transcript: boolean;
  @ApiProperty({ type: CallAnalysisView, description: "The agent's analysis of the call, as the call shows it." })
  analysis: CallAnalysisView;
  @ApiProperty({
    example: 'completed',
    description:
      "The call's status, as `GET /v1/calls/{call_id}` shows it: e.g. `completed`, or `incomplete` when the provider's " +
      "end report did not come within the number's `max_call_minutes`.",
  })
  status: string;
}

/** `call.completed`: a call on the number ended (spec part 6). */
export class CallCompletedWebhook {
  @ApiProperty({ enum: ['call.completed'] }) type: 'call.completed';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
  @ApiProperty({ type: CallCompletedWebhookCall }) call: CallCompletedWebhookCall;
}

export class CallStartedWebhookCall {
  @ApiProperty({ example: 'CA3f2b...', description: 'The call id, as `GET /v1/calls/{call_id}` takes it.' })
  call_sid: string;
  @ApiProperty({ example: '+14155550199', description: "The caller's number (E.164), as the provider gave it." })
  caller: string;
  @ApiProperty({ example: 'inbound' }) direction: string;
  @ApiProperty({ format: 'date-time' }) started_at: string;
}

/** `call.started` (opt-in in `webhook_events`): a call on the number began; `occurred_at` is its `started_at`. */
export class CallStartedWebhook {
  @ApiProperty({ enum: ['call.started'] }) type: 'call.started';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
  @ApiProperty({ type: CallStartedWebhookCall }) call: CallStartedWebhookCall;
}

export class CallUpdatedWebhookPrevious {
  @ApiProperty({ example: 'incomplete', description: 'The status the call had before (and was billed with).' })
  status: string;
  @ApiProperty({ minimum: 0, description: 'The talk time in seconds it had before (and was billed with).' })
  duration_sec: number;
}

/**
 * `call.updated` (opt-in in `webhook_events`): a call closed as `incomplete` got its late end report, once per call.
 * `call` is the call as corrected, as `call.completed` carries it; `previous` what it was before.
 */
export class CallUpdatedWebhook {
  @ApiProperty({ enum: ['call.updated'] }) type: 'call.updated';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
  @ApiProperty({ type: CallCompletedWebhookCall }) call: CallCompletedWebhookCall;
  @ApiProperty({ type: CallUpdatedWebhookPrevious }) previous: CallUpdatedWebhookPrevious;
}

/** `webhook.test`: sent on demand by `POST /v1/numbers/{id}/webhook-test`, signed like any other event. */
export class TestWebhook {
  @ApiProperty({ enum: ['webhook.test'] }) type: 'webhook.test';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
}

export class PastDueWebhookNumber {
  @ApiProperty({ example: '+14155550100' }) phone_number: string;
  @ApiProperty({ enum: ['past_due'] }) status: 'past_due';
}

/** `number.past_due`: the monthly charge failed; the number is paused (7 days' grace before release). */
export class NumberPastDueWebhook {
  @ApiProperty({ enum: ['number.past_due'] }) type: 'number.past_due';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
  @ApiProperty({ type: PastDueWebhookNumber }) number: PastDueWebhookNumber;
}

export class ReleasedWebhookNumber {
  @ApiProperty({ example: '+14155550100' }) phone_number: string;
  @ApiProperty({ enum: ['released'] }) status: 'released';
}

/** `number.released`: the number was released (by the account, or after the grace). */
export class NumberReleasedWebhook {
  @ApiProperty({ enum: ['number.released'] }) type: 'number.released';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
  @ApiProperty({ type: ReleasedWebhookNumber }) number: ReleasedWebhookNumber;
}

export class BalanceLowWebhookBalance {
  @ApiProperty({ description: 'The balance after the charge that crossed below the threshold (may be negative).' })
  balance_cents: number;
  @ApiProperty({ example: 500, description: 'The threshold crossed.' }) threshold_cents: number;
}

/** `billing.balance_low` (opt-in in `webhook_events`, docs/adr/0131): the balance fell below $5.00. */
export class BalanceLowWebhook {
  @ApiProperty({ enum: ['billing.balance_low'] }) type: 'billing.balance_low';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
  @ApiProperty({ type: BalanceLowWebhookBalance }) balance: BalanceLowWebhookBalance;
}

export class TopUpFailedWebhookTopUp {
  @ApiProperty({ format: 'uuid', description: 'The auto-top-up attempt.' }) attempt_id: string;
  @ApiProperty({ minimum: 1, description: 'The amount asked, in cents.' }) amount_cents: number;
  @ApiProperty({ enum: ['declined'] }) reason: 'declined';
  @ApiProperty({ format: 'date-time' }) attempted_at: string;
}

/** `billing.top_up_failed` (opt-in in `webhook_events`, docs/adr/0131): an auto top-up was declined. No card data. */
export class TopUpFailedWebhook {
  @ApiProperty({ enum: ['billing.top_up_failed'] }) type: 'billing.top_up_failed';
  @ApiProperty(NUMBER_ID) number_id: string;
  @ApiProperty(OCCURRED_AT) occurred_at: string;
  @ApiProperty({ type: TopUpFailedWebhookTopUp }) top_up: TopUpFailedWebhookTopUp;
}

/** Each webhook event type: the class describing its body, and when it is sent (docs/webhooks.md). */
export const WEBHOOK_BODIES = {
  'call.completed': { body: CallCompletedWebhook, summary: 'A call on the number ended' },
  'call.started': {
    body: CallStartedWebhook,
    summary: "Opt-in (the number's webhook_events): a call on the number began",
  },
  'call.updated': {
    body: CallUpdatedWebhook,
    summary: "Opt-in (the number's webhook_events): a call closed as incomplete got its late end report",
  },
  'number.past_due': {
    body: NumberPastDueWebhook,
    summary: "The monthly charge failed: the number is paused (7 days' grace before release)",
  },
  'number.released': { body: NumberReleasedWebhook, summary: 'The number was released (by you, or after the grace)' },
  'webhook.test': { body: TestWebhook, summary: 'A test event, sent by POST /v1/numbers/{id}/webhook-test' },
  'billing.balance_low': {
    body: BalanceLowWebhook,
    summary: "Opt-in (the number's webhook_events): the account's balance went below $5.00",
  },
  'billing.top_up_failed': {
    body: TopUpFailedWebhook,
    summary: "Opt-in (the number's webhook_events): an auto-top-up payment was declined",
  },
} as const satisfies Record<WebhookEventType, { body: new () => { type: WebhookEventType }; summary: string }>;
