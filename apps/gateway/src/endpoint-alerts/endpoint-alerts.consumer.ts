import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { EndpointDisabledEvent, type EndpointDisabledData } from '@switchboard/contracts';
import {
  EventConsumer,
  MESSAGING_CONFIG,
  NATS_LINK,
  NatsLink,
  startWhenConnected,
  type MessagingConfig,
} from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { EndpointAlertsService } from './endpoint-alerts.service';

export const ENDPOINT_ALERTS_DURABLE = 'gateway-endpoint-alerts';
const START_RETRY_MS = 5_000;

/**
 * `webhook.endpoint_disabled` from the WEBHOOKS stream (docs/adr/0075), durable and at least once: each event mails
 * the account's owners (EndpointAlertsService, which sends each mail once under redelivery). The gateway listens
 * before NATS answers, so the consumer starts once the connection is there, in the background.
 */
@Injectable()
export class EndpointAlertsConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: EventConsumer<EndpointDisabledData> | undefined;
  private starting: Promise<void> | undefined;
  private stopped = false;

  constructor(
    @Inject(NATS_LINK) private readonly link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly alerts: EndpointAlertsService,
  ) {}

  onApplicationBootstrap(): void {
    this.starting = this.startUntilStarted();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.consumer?.stop();
  }

  /** Resolves once the consumer runs (or the gateway stops); for tests. */
  async started(): Promise<void> {
    await this.starting;
  }

  /** Tries again every START_RETRY_MS while the start fails (JetStream not ready yet): events wait in the stream. */
  private startUntilStarted(): Promise<void> {
    return startWhenConnected(this.link, (nc) => this.start(nc), {
      isStopped: () => this.stopped,
      retryMs: START_RETRY_MS,
      onFailure: async (error) => {
        this.logger.warn(
          { err: error, durable: ENDPOINT_ALERTS_DURABLE },
          'endpoint alerts consumer did not start; trying again',
        );
        await this.consumer?.stop().catch(() => undefined);
        this.consumer = undefined;
      },
    });
  }

  private async start(nc: NatsConnection): Promise<void> {
    const consumer = new EventConsumer(
      nc,
      this.messaging,
      {
        event: EndpointDisabledEvent,
        durable: ENDPOINT_ALERTS_DURABLE,
        concurrency: 1,
        handler: async (envelope) => {
          await this.alerts.handle(envelope);
        },
      },
      this.logger,
    );
    this.consumer = consumer;
    await consumer.start();
    if (this.stopped) await consumer.stop();
  }
}
