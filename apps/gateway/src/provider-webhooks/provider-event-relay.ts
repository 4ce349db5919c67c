import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { STREAMS } from '@switchboard/contracts';
import {
  MESSAGING_CONFIG,
  NATS_LINK,
  NatsLink,
  OutboxPublisher,
  startWhenConnected,
  type MessagingConfig,
} from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { OutboxRelay } from '@switchboard/service-runtime';
import { GatewayTransactions } from '../prisma/gateway-prisma';

/**
 * The gateway's outbox relay, for provider events (PROVIDER stream). The gateway listens before NATS answers, so
 * the relay starts once the connection is there, in the background; until then accepted events wait in the outbox
 * (a provider webhook is answered 200 while NATS is down, and published when it is back).
 */
@Injectable()
export class ProviderEventRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private relay: OutboxRelay | undefined;
  private starting: Promise<void> | undefined;
  private stopped = false;

  constructor(
    @Inject(NATS_LINK) private readonly link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly transactions: GatewayTransactions,
  ) {}

  onApplicationBootstrap(): void {
    this.starting = this.startUntilStarted();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.relay?.stop();
  }

  /** Resolves once the relay runs (or the gateway stops); for tests. */
  async started(): Promise<void> {
    await this.starting;
  }

  /** Publish now rather than at the next poll (after an event is accepted). */
  kick(): void {
    this.relay?.kick();
  }

  private startUntilStarted(): Promise<void> {
    return startWhenConnected(
      this.link,
      async (nc) => {
        const relay = new OutboxRelay(
          new OutboxPublisher(this.transactions, nc, this.messaging, [STREAMS.provider]),
          this.logger,
        );
        await relay.start();
        this.relay = relay;
        if (this.stopped) await relay.stop();
      },
      {
        isStopped: () => this.stopped,
        onFailure: (error) => this.logger.warn({ err: error }, 'provider event relay did not start; trying again'),
      },
    );
  }
}
