import { createHash } from 'node:crypto';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  BalanceLowEvent,
  TopUpFailedEvent,
  type BalanceLowData,
  type EventEnvelope,
  type TopUpFailedData,
} from '@switchboard/contracts';
import { DurableEventPattern, JetStreamContext } from '@switchboard/messaging';
import { BILLING_BALANCE_LOW_TYPE, BILLING_TOP_UP_FAILED_TYPE, type BillingWebhookBody } from '@switchboard/signing';
import { DeliverCallCompleted } from './deliver-call-completed';

export const BALANCE_LOW_DURABLE = 'webhook-dispatcher-billing-balance-low';
export const TOP_UP_FAILED_DURABLE = 'webhook-dispatcher-billing-top-up-failed';

type BillingEventData = BalanceLowData | TopUpFailedData;

/**
 * The webhook id of an account-level event at one number: a UUID derived from the event's id and the number's, so a
 * JetStream redelivery of the event is the same delivery at every number, and each number's is its own.
 */
export function fanOutEventId(eventId: string, numberId: string): string {
  const hex = createHash('sha256').update(`${eventId}\n${numberId}`).digest('hex');
  // Shaped as an RFC 9562 version 8 (custom) UUID.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The webhook body of a billing event, as the number `numberId` receives it. */
export function billingWebhookBody(type: string, data: BillingEventData, numberId: string): BillingWebhookBody {
  if (type === BalanceLowEvent.type) {
    const low = data as BalanceLowData;
    return {
      type: BILLING_BALANCE_LOW_TYPE,
      number_id: numberId,
      occurred_at: low.occurred_at,
      balance: { balance_cents: low.balance_cents, threshold_cents: low.threshold_cents },
    };
  }
  const failed = data as TopUpFailedData;
  return {
    type: BILLING_TOP_UP_FAILED_TYPE,
    number_id: numberId,
    occurred_at: failed.occurred_at,
    top_up: {
      attempt_id: failed.attempt_id,
      amount_cents: failed.amount_cents,
      reason: failed.reason,
      attempted_at: failed.attempted_at,
    },
  };
}

/**
 * `billing.balance_low` and `billing.top_up_failed` webhooks (docs/adr/0131-auto-top-up-and-stripe.md): each event
 * names the account's numbers that opted in when it happened (numbers-billing owns `webhook_events`); each gets
 * its own delivery, signed with its own secret, in its own log, retried and redeliverable like every other event.
 * One number's failure does not hold the others back: all are tried, then the first error (a retry) is thrown.
 */
@Controller()
export class BillingEventsConsumer {
  constructor(private readonly deliver: DeliverCallCompleted) {}

  @DurableEventPattern(BalanceLowEvent, { durable: BALANCE_LOW_DURABLE })
  balanceLow(@Payload() envelope: EventEnvelope<BalanceLowData>, @Ctx() ctx: JetStreamContext): Promise<void> {
    return this.handle(envelope, ctx.deliveryCount);
  }

  @DurableEventPattern(TopUpFailedEvent, { durable: TOP_UP_FAILED_DURABLE })
  topUpFailed(@Payload() envelope: EventEnvelope<TopUpFailedData>, @Ctx() ctx: JetStreamContext): Promise<void> {
    return this.handle(envelope, ctx.deliveryCount);
  }

  async handle(envelope: EventEnvelope<BillingEventData>, deliveryCount = 1): Promise<void> {
    const data = envelope.data;
    // The first number's failure is rethrown (the delivery service throws Errors), after every number had its try.
    let firstError: Error | undefined;
    for (const numberId of new Set(data.number_ids)) {
      const body = billingWebhookBody(envelope.type, data, numberId);
      try {
        await this.deliver.send(
          {
            event_id: fanOutEventId(envelope.id, numberId),
            event_type: body.type,
            call_sid: '',
            number_id: numberId,
            account_id: data.account_id,
            body: JSON.stringify(body),
          },
          envelope.correlation_id,
          { deliveryCount },
        );
      } catch (error) {
        firstError ??= error as Error;
      }
    }
    if (firstError !== undefined) throw firstError;
  }
}
