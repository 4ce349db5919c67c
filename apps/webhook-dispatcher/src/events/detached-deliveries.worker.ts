import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { RetryLater } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { PollingWorker } from '@switchboard/service-runtime';
import { randomUUID } from 'node:crypto';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliverCallCompleted } from '../deliveries/deliver-call-completed';
import { WebhookEventsRepository } from './webhook-events.repository';

/**
 * Sends the deliveries no JetStream message drives (redeliveries and recoveries, docs/adr/0075): every
 * `WEBHOOK_SWEEP_INTERVAL_MS` it takes up to `WEBHOOK_CONCURRENCY` due ones and runs each through the same use case
 * as `call.completed`, whose lease keeps two replicas from sending one event at once. A failed attempt leaves its
 * backoff in the row, so the next sweep after it is due sends it again.
 */
@Injectable()
export class DetachedDeliveriesWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;
  private stopped = false;

  constructor(
    private readonly events: WebhookEventsRepository,
    private readonly deliver: DeliverCallCompleted,
    @Inject(DISPATCHER_CONFIG) private readonly config: WebhookDispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.worker = new PollingWorker({
      intervalMs: config.sweepIntervalMs,
      pass: () => this.sweep(),
      onError: (err) => logger.warn({ err }, 'detached webhook delivery sweep failed; will retry'),
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    return this.worker.stop();
  }

  /** One sweep: sends every due detached delivery (at most WEBHOOK_CONCURRENCY at once). Returns how many it tried. */
  async sweep(now = new Date()): Promise<number> {
    if (this.stopped) return 0;
    let due;
    try {
      due = await this.events.due(now, this.config.concurrency);
    } catch (err) {
      this.logger.warn({ err }, 'detached webhook deliveries could not be read; next sweep tries again');
      return 0;
    }
    await Promise.all(
      due.map(async (delivery) => {
        try {
          await this.deliver.send(delivery, randomUUID());
        } catch (error) {
          // A retry is in the row already (backoff) or needs nothing (busy host, lookup failure): the next sweep.
          if (!(error instanceof RetryLater))
            this.logger.warn({ err: error, event_id: delivery.event_id }, 'detached webhook delivery failed');
        }
      }),
    );
    return due.length;
  }
}
