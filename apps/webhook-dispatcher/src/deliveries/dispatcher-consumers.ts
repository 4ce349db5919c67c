import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventDescriptor, EventEnvelope } from '@switchboard/contracts';
import { EventConsumer, MESSAGING_CONFIG, NATS_CONNECTION, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';

/** An event the dispatcher turns into webhooks, and the durable consumer that reads it. */
export type DispatcherSubscription<T extends object> = readonly [event: EventDescriptor<T>, durable: string];

/**
 * Starts the durable consumers of events that become webhooks, all alike: the dispatcher's concurrency and ack
 * wait, a deep pending window (a slow receiver must not stall the stream), and the delivery count handed to the
 * handler so retries can tell a redelivery.
 */
@Injectable()
export class DispatcherConsumers {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async start<T extends object>(
    subscriptions: readonly DispatcherSubscription<T>[],
    handle: (envelope: EventEnvelope<T>, deliveryCount: number) => Promise<void>,
  ): Promise<EventConsumer<T>[]> {
    const started: EventConsumer<T>[] = [];
    for (const [event, durable] of subscriptions) {
      const consumer = new EventConsumer(
        this.nc,
        this.messaging,
        {
          event,
          durable,
          concurrency: this.config.concurrency,
          ackWaitMs: this.config.ackWaitMs,
          maxAckPending: 100_000,
          handler: async (envelope, meta) => handle(envelope, meta.deliveryCount),
        },
        this.logger,
      );
      started.push(consumer);
      await consumer.start();
    }
    return started;
  }
}
