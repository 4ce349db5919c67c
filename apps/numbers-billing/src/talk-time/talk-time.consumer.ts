import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { CallCompletedEvent, type CallCompletedData } from '@switchboard/contracts';
import { EventConsumer, MESSAGING_CONFIG, NATS_CONNECTION, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { TalkTimeService } from './talk-time.service';

export const TALK_TIME_DURABLE = 'numbers-billing-talk-time';

/** The durable JetStream consumer of `call.completed` that bills talk time (at least once in, once in the ledger). */
@Injectable()
export class TalkTimeConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly consumer: EventConsumer<CallCompletedData>;

  constructor(
    talkTime: TalkTimeService,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) config: MessagingConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.consumer = new EventConsumer(
      nc,
      config,
      {
        event: CallCompletedEvent,
        durable: TALK_TIME_DURABLE,
        handler: async (event) => {
          await talkTime.bill(event);
        },
        concurrency: 8,
        ackWaitMs: 60_000,
      },
      logger,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer.stop();
  }
}
