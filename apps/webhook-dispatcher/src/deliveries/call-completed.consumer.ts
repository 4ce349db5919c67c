import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { CallCompletedEvent, type CallCompletedData } from '@switchboard/contracts';
import { EventConsumer, MESSAGING_CONFIG, NATS_CONNECTION, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliverCallCompleted } from './deliver-call-completed';

/** The durable JetStream consumer of `call.completed` that webhook-dispatcher reads from. */
export const CALL_COMPLETED_DURABLE = 'webhook-dispatcher';

/**
 * Transport of the delivery use case: a durable pull consumer with explicit acknowledgement. Up to
 * `WEBHOOK_CONCURRENCY` events are handled at once; an event is acknowledged only when it has its verdict;
 * scheduled retries go back to JetStream with a delay (nak), so no slot is held while an event waits.
 * On shutdown it stops pulling and lets attempts on the wire finish (each bounded by `WEBHOOK_TIMEOUT_MS`).
 */
@Injectable()
export class CallCompletedConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: EventConsumer<CallCompletedData> | undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly deliver: DeliverCallCompleted,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const allowed = [...this.config.egress.allowedPrivateHosts];
    if (allowed.length > 0) {
      this.logger.warn(
        { hosts: allowed },
        'WEBHOOK_ALLOWED_PRIVATE_HOSTS is set: webhooks may be sent to private addresses of these hosts (for local testing only)',
      );
    }
    this.consumer = new EventConsumer(
      this.nc,
      this.messaging,
      {
        event: CallCompletedEvent,
        durable: CALL_COMPLETED_DURABLE,
        concurrency: this.config.concurrency,
        ackWaitMs: this.config.ackWaitMs,
        // Events waiting for a delayed retry stay unacknowledged; a dead receiver's backlog must not fill the
        // window and hold up every other receiver's deliveries (ADR 0030).
        maxAckPending: 100_000,
        handler: async (event, meta) => {
          await this.deliver.deliver(event, meta.deliveryCount);
        },
      },
      this.logger,
    );
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }
}
