import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JsMsg,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { EventDescriptor, EventEnvelope } from '@switchboard/contracts';
import { Metrics } from '@switchboard/observability';
import type { ObservableCallback, ObservableResult } from '@opentelemetry/api';
import type { Logger } from '@switchboard/observability';
import { isDatabaseUnavailable } from '@switchboard/persistence';
import { ensureStream } from './jetstream';
import { OutageLog } from './outage-log';
import { eventSubject, type MessagingConfig } from './messaging.config';
import { contextFromHeaders } from './trace-context';
import { validateMessage } from './validation';

/** Thrown by a handler to be called again later (the message is not acknowledged). */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'RetryLater';
  }
}

export interface DeliveryMeta {
  /** 1 on the first delivery; grows with each redelivery. */
  deliveryCount: number;
  /** Keep the message from being redelivered while a long handler runs. */
  working(): void;
}

export interface EventConsumerOptions<T extends object> {
  event: EventDescriptor<T>;
  /** Durable consumer name: one per consuming service and purpose (e.g. `billing-talk-time`). */
  durable: string;
  handler: (event: EventEnvelope<T>, meta: DeliveryMeta) => Promise<void>;
  /** How many messages are handled at once. */
  concurrency?: number;
  /** How long a message may stay unacknowledged before JetStream redelivers it. */
  ackWaitMs?: number;
  /** Delay before redelivering after an unexpected handler error. */
  retryDelayMs?: number;
  /** Unacknowledged messages allowed, delayed retries included (default 1000). */
  maxAckPending?: number;
}

const tracer = trace.getTracer('switchboard.messaging');
const decoder = new TextDecoder();

/**
 * A durable pull consumer: at least once, explicit acknowledgement after the handler succeeds. A message whose
 * payload is invalid is logged and terminated (retrying cannot fix it); a failing handler is retried.
 */
export class EventConsumer<T extends object> {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private pendingGauge: ObservableCallback | undefined;
  private readonly outages: OutageLog;

  constructor(
    private readonly nc: NatsConnection,
    private readonly config: MessagingConfig,
    private readonly options: EventConsumerOptions<T>,
    private readonly logger: Logger,
  ) {
    this.outages = new OutageLog(logger);
  }

  async start(): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    const stream = await ensureStream(this.nc, this.config, this.options.event.stream, jsm);
    const ackWait = (this.options.ackWaitMs ?? 30_000) * 1_000_000;
    const maxAckPending = this.options.maxAckPending ?? 1000;
    const consumerConfig = {
      durable_name: this.options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: eventSubject(this.config, this.options.event.type),
      ack_wait: ackWait,
      max_ack_pending: maxAckPending,
    };
    try {
      await jsm.consumers.info(stream, this.options.durable);
      await jsm.consumers.update(stream, this.options.durable, { ack_wait: ackWait, max_ack_pending: maxAckPending });
    } catch {
      await jsm.consumers.add(stream, consumerConfig).catch(async (error) => {
        await jsm.consumers.info(stream, this.options.durable).catch(() => {
          throw error;
        });
      });
    }
    const consumer = await jetstream(this.nc).consumers.get(stream, this.options.durable);
    const concurrency = this.options.concurrency ?? 16;
    this.messages = await consumer.consume({ max_messages: concurrency });
    // Pending and unacknowledged counts, read from JetStream at each scrape.
    this.pendingGauge = async (result: ObservableResult) => {
      const info = await jsm.consumers.info(stream, this.options.durable).catch(() => undefined);
      if (!info) return;
      result.observe(info.num_pending, { durable: this.options.durable, state: 'pending' });
      result.observe(info.num_ack_pending, { durable: this.options.durable, state: 'ack_pending' });
    };
    Metrics.consumerPending().addCallback(this.pendingGauge);
    this.loop = this.run(this.messages, concurrency);
  }

  /** Stops pulling, lets handlers in flight finish (their messages are acknowledged or handed back). */
  async stop(): Promise<void> {
    if (this.pendingGauge) Metrics.consumerPending().removeCallback(this.pendingGauge);
    await this.messages?.close();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(messages: ConsumerMessages, concurrency: number): Promise<void> {
    for await (const msg of messages) {
      const task = this.handle(msg).finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
      if (this.inFlight.size >= concurrency) await Promise.race(this.inFlight);
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    const parent = contextFromHeaders(msg.headers);
    const span = tracer.startSpan(
      `${this.options.event.type} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.consumer.group.name': this.options.durable,
          'messaging.destination.name': msg.subject,
        },
      },
      parent,
    );
    await context.with(trace.setSpan(parent, span), async () => {
      let envelope: EventEnvelope<T>;
      try {
        const raw = JSON.parse(decoder.decode(msg.data)) as EventEnvelope<unknown>;
        envelope = { ...raw, data: await validateMessage(this.options.event.payload, raw.data) };
      } catch (err) {
        this.logger.error({ err, subject: msg.subject, seq: msg.seq }, 'invalid event dropped');
        msg.term();
        span.end();
        return;
      }
      try {
        await this.options.handler(envelope, { deliveryCount: msg.info.deliveryCount, working: () => msg.working() });
        msg.ack();
        this.outages.recovered('database');
      } catch (error) {
        if (error instanceof RetryLater) {
          msg.nak(error.delayMs);
        } else if (isDatabaseUnavailable(error)) {
          // Every event fails alike until the database is back: logged once per incident, each one retried.
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'database unavailable' });
          this.outages.failed('database', error, { consumer: this.options.durable });
          msg.nak(this.options.retryDelayMs ?? 1000);
        } else {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          this.logger.error(
            { err: error, event_id: envelope.id, type: envelope.type },
            'event handler failed; will retry',
          );
          msg.nak(this.options.retryDelayMs ?? 1000);
        }
      } finally {
        span.end();
      }
    });
  }
}
