import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  CallStartedEvent,
  CallUpdatedEvent,
  type CallStartedData,
  type CallUpdatedData,
  type EventEnvelope,
} from '@switchboard/contracts';
import { DurableEventPattern, JetStreamContext } from '@switchboard/messaging';
import type { CallStartedWebhookBody, CallUpdatedWebhookBody } from '@switchboard/signing';
import { DeliverCallCompleted, type Verdict } from './deliver-call-completed';
import { callStartedWebhookBody, callUpdatedWebhookBody } from './webhook-body';

export const CALL_STARTED_DURABLE = 'webhook-dispatcher-call-started';
export const CALL_UPDATED_DURABLE = 'webhook-dispatcher-call-updated';

/**
 * The opt-in `call.started` and `call.updated` webhooks, from calls-media's events of the same names (docs/webhooks.md):
 * sent only to a number whose `webhook_events` lists the type, as its webhook target says. For any other number
 * nothing is written and the event is acknowledged. The webhook's id is the event's, so JetStream's redeliveries are
 * the same delivery.
 */
@Controller()
export class OptInCallEventsConsumer {
  constructor(private readonly deliver: DeliverCallCompleted) {}

  @DurableEventPattern(CallStartedEvent, { durable: CALL_STARTED_DURABLE })
  async started(@Payload() envelope: EventEnvelope<CallStartedData>, @Ctx() ctx: JetStreamContext): Promise<void> {
    await this.send(envelope, callStartedWebhookBody(envelope), ctx.deliveryCount);
  }

  @DurableEventPattern(CallUpdatedEvent, { durable: CALL_UPDATED_DURABLE })
  async updated(@Payload() envelope: EventEnvelope<CallUpdatedData>, @Ctx() ctx: JetStreamContext): Promise<void> {
    await this.send(envelope, callUpdatedWebhookBody(envelope), ctx.deliveryCount);
  }

  /** Sends the event's webhook `body` to its number when it is subscribed; resolves to what became of it. */
  async send(
    envelope: EventEnvelope<CallStartedData | CallUpdatedData>,
    body: CallStartedWebhookBody | CallUpdatedWebhookBody,
    deliveryCount = 1,
  ): Promise<Verdict> {
    const call = envelope.data;
    const result = await this.deliver.send(
      {
        event_id: envelope.id,
        event_type: body.type,
        call_sid: call.call_sid,
        number_id: call.number_id,
        account_id: call.account_id,
        body: JSON.stringify(body),
      },
      envelope.correlation_id,
      { deliveryCount, optIn: true },
    );
    return result.verdict;
  }
}
