import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  NumberProvisionedEvent,
  NumberReleasedEvent,
  NumberUpdatedEvent,
  type EventEnvelope,
  type NumberStateChanged,
} from '@switchboard/contracts';
import { EventConsumer, MESSAGING_CONFIG, NATS_CONNECTION, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { NumberStatesRepository } from './number-states.repository';
import { WAITING_REPORTS, type WaitingReports } from './waiting-reports.port';

const MAX_VERSION = 2n ** 63n - 1n;

/**
 * calls-media's own copy of who owns which phone number: every `number.*` state numbers-billing publishes, kept
 * by durable consumers. A new state may settle reports that were waiting for it.
 */
@Injectable()
export class NumberEventsConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly consumers: EventConsumer<NumberStateChanged>[];

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) config: MessagingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly states: NumberStatesRepository,
    @Inject(WAITING_REPORTS) private readonly reports: WaitingReports,
  ) {
    const events = [
      [NumberProvisionedEvent, 'calls-media-number-provisioned'],
      [NumberUpdatedEvent, 'calls-media-number-updated'],
      [NumberReleasedEvent, 'calls-media-number-released'],
    ] as const;
    this.consumers = events.map(
      ([event, durable]) =>
        new EventConsumer(
          nc,
          config,
          { event, durable, handler: (envelope) => this.handle(envelope), concurrency: 8 },
          logger,
        ),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.start()));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.consumers.map((consumer) => consumer.stop()));
  }

  async handle(envelope: EventEnvelope<NumberStateChanged>): Promise<void> {
    const data = envelope.data;
    const version = BigInt(data.version);
    if (version > MAX_VERSION) {
      this.logger.error(
        { event_id: envelope.id, number_id: data.number_id, version: data.version },
        'number state version out of range; ignored',
      );
      return;
    }
    await this.states.add({
      number_id: data.number_id,
      version,
      account_id: data.account_id,
      phone_number: data.phone_number,
      status: data.status,
      answering: data.answering,
      changed_at: new Date(data.changed_at),
    });
    await this.reports.settleWaitingFor(data.phone_number);
  }
}
