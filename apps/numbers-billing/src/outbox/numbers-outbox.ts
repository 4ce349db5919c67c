import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAMS, type EventDescriptor } from '@switchboard/contracts';
import {
  MESSAGING_CONFIG,
  MESSAGING_LOGGER,
  NATS_CONNECTION,
  OutboxRelay,
  outboxRecord,
  type EventCause,
  type MessagingConfig,
  type TransactionalSqlClient,
} from '@switchboard/messaging';
import type { Logger } from 'pino';
import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';

/**
 * The transactional outbox of numbers-billing: `write` adds an event to the transaction that makes the change it
 * reports; the relay publishes committed rows to the NUMBERS stream (at once after `kick()`, else at its poll).
 */
@Injectable()
export class NumbersOutbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(
    prisma: NumbersBillingPrisma,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) config: MessagingConfig,
    @Inject(MESSAGING_LOGGER) logger: Logger,
  ) {
    this.relay = new OutboxRelay(prisma as unknown as TransactionalSqlClient, nc, config, [STREAMS.numbers], logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }

  async write<T extends object>(tx: Tx, event: EventDescriptor<T>, data: T, cause: EventCause): Promise<void> {
    await tx.outboxEvent.create({ data: outboxRecord(event, data, cause) });
  }

  /** Publish now (call after the transaction committed). */
  kick(): void {
    this.relay.kick();
  }

  /** Publishes every committed row now (tests). */
  drain(): Promise<number> {
    return this.relay.drain();
  }
}
