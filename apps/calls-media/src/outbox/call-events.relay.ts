import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAMS } from '@switchboard/contracts';
import { MESSAGING_CONFIG, NATS_CONNECTION, OutboxRelay, type MessagingConfig, type TransactionalSqlClient } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { CALLS_MEDIA_LOGGER } from '../config/tokens';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';

/** Publishes calls-media's outbox (`call.completed`) to the CALLS stream, from start until shutdown. */
@Injectable()
export class CallEventsRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(
    prisma: CallsMediaPrisma,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) config: MessagingConfig,
    @Inject(CALLS_MEDIA_LOGGER) logger: Logger,
  ) {
    this.relay = new OutboxRelay(prisma as unknown as TransactionalSqlClient, nc, config, [STREAMS.calls], logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
  }

  /** Publish now (after a commit) rather than at the next poll. */
  kick(): void {
    this.relay.kick();
  }

  /** Stops publishing; rows committed afterwards wait in the outbox for the next start. */
  stop(): Promise<void> {
    return this.relay.stop();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }
}
