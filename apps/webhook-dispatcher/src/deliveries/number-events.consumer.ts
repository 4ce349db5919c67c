import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  NumberReleasedEvent,
  NumberUpdatedEvent,
  type EventEnvelope,
  type NumberStateChanged,
} from '@switchboard/contracts';
import { DurableEventPattern, JetStreamContext } from '@switchboard/messaging';
import { NUMBER_PAST_DUE_TYPE, NUMBER_RELEASED_TYPE, type NumberWebhookBody } from '@switchboard/signing';
import { DeliverCallCompleted } from './deliver-call-completed';
import { NumberStatesRepository } from './number-states.repository';

export const NUMBER_UPDATED_DURABLE = 'webhook-dispatcher-number-updated';
export const NUMBER_RELEASED_DURABLE = 'webhook-dispatcher-number-released';

/**
 * `number.past_due` and `number.released` webhooks, from numbers-billing's `number.updated` and `number.released`
 * (docs/webhooks.md, "Events"). A number's last state is kept (newest `version` wins), so the change into
 * `past_due` is told once, not again when a past_due number's details change. The webhook's id is the event's, so
 * JetStream's redeliveries are the same delivery.
 */
@Controller()
export class NumberEventsConsumer {
  constructor(
    private readonly states: NumberStatesRepository,
    private readonly deliver: DeliverCallCompleted,
  ) {}

  @DurableEventPattern(NumberUpdatedEvent, { durable: NUMBER_UPDATED_DURABLE })
  updated(@Payload() envelope: EventEnvelope<NumberStateChanged>, @Ctx() ctx: JetStreamContext): Promise<void> {
    return this.handle(envelope, ctx.deliveryCount);
  }

  @DurableEventPattern(NumberReleasedEvent, { durable: NUMBER_RELEASED_DURABLE })
  released(@Payload() envelope: EventEnvelope<NumberStateChanged>, @Ctx() ctx: JetStreamContext): Promise<void> {
    return this.handle(envelope, ctx.deliveryCount);
  }

  async handle(envelope: EventEnvelope<NumberStateChanged>, deliveryCount = 1): Promise<void> {
    const number = envelope.data;
    const becamePastDue = await this.recordState(number);
    let type: NumberWebhookBody['type'];
    if (number.status === 'released' && envelope.type === NumberReleasedEvent.type) type = NUMBER_RELEASED_TYPE;
    else if (number.status === 'past_due' && becamePastDue) type = NUMBER_PAST_DUE_TYPE;
    else return;
    const body: NumberWebhookBody = {
      type,
      number_id: number.number_id,
      occurred_at: number.changed_at,
      number: { phone_number: number.phone_number, status: number.status },
    };
    await this.deliver.send(
      {
        event_id: envelope.id,
        event_type: type,
        call_sid: '',
        number_id: number.number_id,
        account_id: number.account_id,
        body: JSON.stringify(body),
      },
      envelope.correlation_id,
      { deliveryCount },
    );
  }

  /**
   * Keeps the number's newest state; true when this event moved it into `past_due` (or is the first seen, past_due).
   * An older event (a lower version) changes nothing and answers false. A redelivered event answers as the first time.
   */
  private async recordState(number: NumberStateChanged): Promise<boolean> {
    const row = await this.states.record(number);
    if (row.previous_version !== null && row.previous_version > BigInt(number.version)) return false;
    if (row.previous_version !== null && row.previous_version === BigInt(number.version)) {
      // The same event again (a redelivery): it became past_due if it is past_due; the delivery is de-duplicated by id.
      return number.status === 'past_due';
    }
    return number.status === 'past_due' && row.previous !== 'past_due';
  }
}
