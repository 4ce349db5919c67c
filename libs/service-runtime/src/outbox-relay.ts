import type { BeforeApplicationShutdown, OnApplicationBootstrap, Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { ROOT_CONTEXT, context } from '@opentelemetry/api';
import type { StreamDefinition } from '@switchboard/contracts';
import {
  MESSAGING_CONFIG,
  NATS_CONNECTION,
  OutageLog,
  OutboxPublisher,
  type MessagingConfig,
  type OutboxPublisherOptions,
  type OutboxDatabase,
} from '@switchboard/messaging';
import { LOGGER, Metrics, type Logger } from '@switchboard/observability';
import { isDatabaseUnavailable } from '@switchboard/persistence';
import { PollingWorker } from './polling-worker';

export interface OutboxRelayOptions extends OutboxPublisherOptions {
  /** Time between the end of one pass and the next, when nothing kicks it. */
  pollIntervalMs?: number;
}

/**
 * The app's outbox relay: libs/messaging's `OutboxPublisher` run on a `PollingWorker`, a pass (publish until no
 * unpublished row is left) every `pollIntervalMs` and at once after `kick()`. Started with the app, stopped before it
 * shuts down, waiting for the pass under way, so nothing publishes once NATS closes.
 *
 * The streams are ensured by the first pass, not before the app starts: a JetStream that is not ready yet (a cluster
 * electing its leaders, a node restarting) fails passes, which are retried, instead of failing the service's start.
 * Rows committed meanwhile wait in the outbox; nothing is lost.
 */
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;
  private readonly outages: OutageLog;
  private streamsEnsured = false;

  constructor(
    private readonly publisher: OutboxPublisher,
    logger: Logger,
    options: { pollIntervalMs?: number } = {},
  ) {
    this.outages = new OutageLog(logger);
    this.worker = new PollingWorker({
      intervalMs: options.pollIntervalMs ?? 500,
      passAtStart: true,
      // Outside the kicking caller's context: each row carries its own trace, and the passes that follow a kick
      // must not join the trace of the request that kicked.
      pass: () =>
        context
          .with(ROOT_CONTEXT, () => this.publish())
          .then(() => {
            this.outages.recovered('database');
            this.outages.recovered('JetStream');
            // Every row committed before this pass is published: the OutboxStalled alert watches how long ago.
            Metrics.outboxRelayLastDrained().record(Date.now() / 1000);
          }),
      onError: (err) => {
        // An outage fails every pass (twice a second): logged once per incident, not with a stack each time. The
        // pass reads the database and publishes to JetStream; what is not the database is JetStream (its streams or
        // publishes timing out, no responders, a cluster without a leader).
        if (isDatabaseUnavailable(err)) this.outages.failed('database', err, { worker: 'outbox relay' });
        else this.outages.failed('JetStream', err, { worker: 'outbox relay' });
      },
    });
  }

  start(): Promise<void> {
    this.worker.start();
    return Promise.resolve();
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  /** Stop publishing before NATS and the database close; rows committed later wait for the next start. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  /** Publish now rather than at the next poll. */
  kick(): void {
    void this.worker.kick();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** Publishes until no unpublished row is left. Returns how many it published. */
  drain(): Promise<number> {
    return this.publish();
  }

  /** One pass: the streams first, until they have been ensured once, then every unpublished row. */
  private async publish(): Promise<number> {
    if (!this.streamsEnsured) {
      await this.publisher.ensureStreams();
      this.streamsEnsured = true;
    }
    return this.publisher.drain();
  }
}

/**
 * The app's outbox relay as a Nest provider, injectable as `OutboxRelay`: started with the app, stopped before it
 * shuts down. `transactions` is the app's `Transactions` class (its injection token): the relay opens its
 * transactions there, as the app's services do, and runs its statements on `tx.$kysely()`.
 */
export function provideOutboxRelay(
  transactions: abstract new (...args: never[]) => OutboxDatabase,
  streams: StreamDefinition[],
  options: OutboxRelayOptions = {},
): Provider {
  const { pollIntervalMs, ...publisherOptions } = options;
  return {
    provide: OutboxRelay,
    useFactory: (db: OutboxDatabase, nc: NatsConnection, config: MessagingConfig, logger: Logger) =>
      new OutboxRelay(new OutboxPublisher(db, nc, config, streams, publisherOptions), logger, { pollIntervalMs }),
    inject: [transactions, NATS_CONNECTION, MESSAGING_CONFIG, LOGGER],
  };
}
