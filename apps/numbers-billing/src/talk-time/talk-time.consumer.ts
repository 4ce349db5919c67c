import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CallCompletedEvent, type CallCompletedData, type EventEnvelope } from '@switchboard/contracts';
import { DurableEventPattern } from '@switchboard/messaging';
import { TalkTimeService } from './talk-time.service';

export const TALK_TIME_DURABLE = 'numbers-billing-talk-time';

/** The durable JetStream consumer of `call.completed` that bills talk time (at least once in, once in the ledger). */
@Controller()
export class TalkTimeConsumer {
  constructor(private readonly talkTime: TalkTimeService) {}

  @DurableEventPattern(CallCompletedEvent, { durable: TALK_TIME_DURABLE, concurrency: 8, ackWaitMs: 60_000 })
  async bill(@Payload() event: EventEnvelope<CallCompletedData>): Promise<void> {
    await this.talkTime.bill(event);
  }
}
