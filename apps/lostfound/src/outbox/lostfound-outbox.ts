import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAMS } from '@switchboard/contracts';
import {
  MESSAGING_CONFIG,
  MESSAGING_LOGGER,
  NATS_CONNECTION,
  OutboxRelay,
  type MessagingConfig,
  type TransactionalSqlClient,
} from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';

/**
 * Publishes lostfound's outbox (lostfound.found_logged, lostfound.claim_filed, lostfound.reunited) to the LOSTFOUND
 * stream: started with the app, stopped before it shuts down, kicked after each commit that wrote an event.
 */
@Injectable()
export class LostfoundOutbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(
    prisma: LostfoundPrisma,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) config: MessagingConfig,
    @Inject(MESSAGING_LOGGER) logger: Logger,
  ) {
    this.relay = new OutboxRelay(prisma as unknown as TransactionalSqlClient, nc, config, [STREAMS.lostfound], logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }

  /** Publish what was just committed now rather than at the next poll. */
  kick(): void {
    this.relay.kick();
  }

  /** Publishes everything unpublished; for tests. */
  drain(): Promise<number> {
    return this.relay.drain();
  }
}
