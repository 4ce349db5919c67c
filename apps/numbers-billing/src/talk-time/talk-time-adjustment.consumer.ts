import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CallUpdatedEvent, type CallUpdatedData, type EventEnvelope } from '@switchboard/contracts';
import { DurableEventPattern, JetStreamContext } from '@switchboard/messaging';
import { TalkTimeAdjustmentService } from './talk-time-adjustment.service';

export const TALK_TIME_ADJUSTMENTS_DURABLE = 'numbers-billing-talk-time-adjustments';

/**
 * The durable JetStream consumer of `call.updated` that corrects a call's talk time by the difference (at least once
 * in, once in the ledger). Rare (calls closed as `incomplete` whose end report came later): a few at a time.
 */
@Controller()
export class TalkTimeAdjustmentConsumer {
  constructor(private readonly adjustments: TalkTimeAdjustmentService) {}

  @DurableEventPattern(CallUpdatedEvent, { durable: TALK_TIME_ADJUSTMENTS_DURABLE, concurrency: 4, ackWaitMs: 60_000 })
  async adjust(@Payload() event: EventEnvelope<CallUpdatedData>, @Ctx() ctx: JetStreamContext): Promise<void> {
    await this.adjustments.adjust(event, ctx.deliveryCount);
  }
}
