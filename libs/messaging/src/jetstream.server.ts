import { Catch, UseFilters, UsePipes, type ExceptionFilter } from '@nestjs/common';
import {
  BaseRpcContext,
  EventPattern,
  Server,
  type CustomTransportStrategy,
  type MessageHandler,
} from '@nestjs/microservices';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode, context, trace, type ObservableResult } from '@opentelemetry/api';
import type { EventDescriptor, EventEnvelope } from '@switchboard/contracts';
import { Metrics, type Logger } from '@switchboard/observability';
import { isDatabaseUnavailable } from '@switchboard/persistence';
import { isObservable, lastValueFrom, throwError, type Observable } from 'rxjs';
import {
  DEFAULT_DELIVERY_BUDGET,
  DeadLetterWriter,
  afterFailure,
  checkDeliveryBudget,
  type DeliveryBudget,
} from './dead-letters';
import { ensureStream } from './jetstream';
import { eventSubject, type MessagingConfig } from './messaging.config';
import type { NatsLink } from './nats-link';
import { OutageLog } from './outage-log';
import { contextFromHeaders } from './trace-context';
import { EventValidationPipe, InvalidEvent } from './validation';

/** The transport of `@DurableEventPattern` handlers: only `JetStreamServer` binds them. */
export const JETSTREAM_TRANSPORT = Symbol('JETSTREAM_TRANSPORT');

/** Thrown by a handler to be called again later (the message is handed back to JetStream with this delay). */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'RetryLater';
  }
}

/** A durable consumer's settings, given as the pattern's extras. */
export interface DurableConsumerOptions {
  /** Durable consumer name: one per consuming service and purpose (e.g. `numbers-billing-talk-time`). */
  durable: string;
  /** How many messages are handled at once (default 16). */
  concurrency?: number;
  /** How long a message may stay unacknowledged before JetStream redelivers it (default 30 s). */
  ackWaitMs?: number;
  /**
   * Deliveries charged to a message before it goes to the dead-letter stream (default 5): those that end in a handler
   * failure or are never answered. A database outage and `RetryLater` are not charged (docs/operations.md).
   */
  maxDeliver?: number;
  /** The waits after the 1st, 2nd... charged failure, the last one repeated (default 1 s, 10 s, 1 min, 5 min). */
  backoffMs?: readonly number[];
  /** Delay before redelivering while the service's database is unreachable (default 1 s). */
  outageRetryMs?: number;
  /** Unacknowledged messages allowed, delayed retries included (default 1000). */
  maxAckPending?: number;
}

/**
 * Consumer settings known only at start (read from the environment), by durable name, over the pattern's own: an app
 * gives them to `MessagingModule.forRoot` (`consumerSettings`), and `startMessaging` hands them to the server.
 */
export type EventConsumerSettings = Readonly<Record<string, Partial<Omit<DurableConsumerOptions, 'durable'>>>>;
export const EVENT_CONSUMER_SETTINGS = Symbol('EVENT_CONSUMER_SETTINGS');

interface DurableEventExtras extends DurableConsumerOptions {
  event: EventDescriptor<object>;
  /** `Class.method`, as a dead letter names its handler. */
  handler: string;
}

/** What a `@DurableEventPattern` handler can ask about its message (`@Ctx() ctx: JetStreamContext`). */
export class JetStreamContext extends BaseRpcContext<[JsMsg]> {
  /** 1 on the first delivery; grows with each redelivery. */
  get deliveryCount(): number {
    return this.args[0].info.deliveryCount;
  }

  /** Keeps the message from being redelivered while a long handler runs. */
  working(): void {
    this.args[0].working();
  }

  getMessage(): JsMsg {
    return this.args[0];
  }
}

/**
 * Hands a handler's failure to `JetStreamServer` as it was thrown (Nest's default filter would turn it into an
 * anonymous "Internal server error"): the server decides between ack, nak with a delay, and term.
 */
@Catch()
class HandToTransport implements ExceptionFilter {
  catch(error: unknown): Observable<never> {
    return throwError(() => error);
  }
}
const handToTransport = new HandToTransport();

/**
 * Nest's `@EventPattern` for one event, bound by `JetStreamServer` to a durable JetStream pull consumer with explicit
 * acknowledgement, typed by its descriptor (a handler of another payload fails to compile). The envelope's `data` is
 * validated against the descriptor's class before the handler runs. The handler takes `@Payload()` and, when it needs
 * the delivery count or `working()`, `@Ctx()`:
 *
 *     @DurableEventPattern(CallCompletedEvent, { durable: 'numbers-billing-talk-time', concurrency: 8 })
 *     bill(@Payload() event: EventEnvelope<CallCompletedData>): Promise<void> { ... }
 */
export function DurableEventPattern<T extends object>(event: EventDescriptor<T>, options: DurableConsumerOptions) {
  return <M extends (event: EventEnvelope<T>, ctx: JetStreamContext) => Promise<void>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    const handler = `${(target as { constructor: { name: string } }).constructor.name}.${String(key)}`;
    const extras: DurableEventExtras = { ...options, event: event, handler };
    // `<string>`: the plain overload (a pattern string), not the one keyed by an event map.
    EventPattern<string>(event.type, JETSTREAM_TRANSPORT, { ...extras })(target, key, descriptor);
    UsePipes(new EventValidationPipe(event.payload))(target, key, descriptor);
    UseFilters(handToTransport)(target, key, descriptor);
  };
}

interface Binding {
  pattern: string;
  options: DurableEventExtras;
  budget: DeliveryBudget;
  handler: MessageHandler;
}

const tracer = trace.getTracer('switchboard.messaging');
const decoder = new TextDecoder();

/**
 * A Nest custom transport strategy for durable events: each `@DurableEventPattern` handler gets a JetStream durable
 * pull consumer (created or updated at start, on the stream its event belongs to), at least once, acknowledged only
 * once its handler succeeded:
 * - a message that is not JSON, or whose payload fails validation: dead-lettered at once (retrying cannot fix it);
 * - `RetryLater`: handed back with its delay, not charged to the message;
 * - the database unreachable: handed back after `outageRetryMs`, not charged, the outage logged once per incident;
 * - any other failure: charged; handed back after the consumer's backoff until `maxDeliver` charged deliveries,
 *   then written to the dead-letter stream (with the error, the handler and the counts) and terminated. A delivery
 *   never answered (the handler outlived the ack wait, the process died) is charged too, and found at the next one.
 * JetStream counts every delivery, so the deliveries not charged are counted in the dead-letter stream (`excused`)
 * and subtracted; a consumer's own JetStream `max_deliver` stays unlimited, or an outage would use it up.
 * Each message is handled in a span continuing the publisher's trace; pending and unacknowledged counts are read
 * from JetStream at each metrics scrape. `background`: start in the background once the link connects, trying again
 * while JetStream is not ready (the gateway, which serves before NATS answers); else `listen` fails with the start.
 */
export class JetStreamServer extends Server implements CustomTransportStrategy {
  override readonly transportId = JETSTREAM_TRANSPORT;
  override readonly propagatesEventHandlerErrors = true;
  private readonly bindings: Binding[] = [];
  private readonly consumers: { messages: ConsumerMessages; loop: Promise<void> }[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly gauges: ((result: ObservableResult) => Promise<void>)[] = [];
  private readonly outages: OutageLog;
  private readonly deadLetters: DeadLetterWriter;
  private starting: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly link: NatsLink,
    private readonly config: MessagingConfig,
    private readonly log: Logger,
    private readonly options: { background?: boolean; startRetryMs?: number; settings?: EventConsumerSettings } = {},
  ) {
    super();
    this.outages = new OutageLog(log);
    this.deadLetters = new DeadLetterWriter(config);
  }

  override addHandler(pattern: string, callback: MessageHandler, isEventHandler = false, extras = {}): void {
    const options = extras as Partial<DurableEventExtras>;
    if (!isEventHandler || !options.durable || !options.event) {
      throw new Error(`${pattern}: JetStreamServer serves @DurableEventPattern handlers only`);
    }
    if (this.bindings.some((binding) => binding.options.durable === options.durable)) {
      throw new Error(`durable consumer ${options.durable} is bound twice`);
    }
    const settings = this.options.settings?.[options.durable] ?? {};
    const merged: DurableEventExtras = { ...(options as DurableEventExtras), ...settings };
    const budget = checkDeliveryBudget(merged.durable, {
      maxDeliver: merged.maxDeliver ?? DEFAULT_DELIVERY_BUDGET.maxDeliver,
      backoffMs: merged.backoffMs ?? DEFAULT_DELIVERY_BUDGET.backoffMs,
    });
    this.bindings.push({ pattern, options: merged, budget, handler: callback });
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    if (!this.options.background) {
      try {
        await this.start(await this.link.connected());
        callback();
      } catch (error) {
        callback(error);
      }
      return;
    }
    this.starting = this.startUntilStarted();
    callback();
  }

  /** Resolves once every consumer runs (or the server closed); for a background start. */
  async started(): Promise<void> {
    await this.starting;
  }

  /** Stops pulling, lets handlers in flight finish (their messages are acknowledged or handed back). */
  async close(): Promise<void> {
    this.stopped = true;
    await this.starting;
    await this.stopConsumers();
  }

  on(): never {
    throw new Error('JetStreamServer emits no events');
  }

  unwrap<T>(): T {
    return this.link.connection as T;
  }

  private async startUntilStarted(): Promise<void> {
    while (!this.stopped) {
      try {
        const nc = await this.link.connected();
        if (this.stopped) return;
        await this.start(nc);
        return;
      } catch (error) {
        this.log.warn(
          { err: error, durables: this.bindings.map((b) => b.options.durable) },
          'event consumers did not start; trying again',
        );
        await this.stopConsumers();
        await new Promise((resolve) => setTimeout(resolve, this.options.startRetryMs ?? 5_000).unref());
      }
    }
  }

  private async start(nc: NatsConnection): Promise<void> {
    const jsm = await jetstreamManager(nc);
    if (this.bindings.length > 0) await this.deadLetters.ensure(nc, jsm);
    for (const binding of this.bindings) {
      if (this.stopped) return;
      await this.startConsumer(nc, jsm, binding);
    }
  }

  private async startConsumer(nc: NatsConnection, jsm: JetStreamManager, binding: Binding): Promise<void> {
    const { event, durable } = binding.options;
    const stream = await ensureStream(nc, this.config, event.stream, jsm);
    const ackWait = (binding.options.ackWaitMs ?? 30_000) * 1_000_000;
    const maxAckPending = binding.options.maxAckPending ?? 1000;
    try {
      await jsm.consumers.info(stream, durable);
      await jsm.consumers.update(stream, durable, { ack_wait: ackWait, max_ack_pending: maxAckPending });
    } catch {
      await jsm.consumers
        .add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: eventSubject(this.config, event.type),
          ack_wait: ackWait,
          max_ack_pending: maxAckPending,
        })
        .catch(async (error) => {
          // Another replica created it between our check and our add: that is fine.
          await jsm.consumers.info(stream, durable).catch(() => {
            throw error;
          });
        });
    }
    const consumer = await jetstream(nc).consumers.get(stream, durable);
    const concurrency = binding.options.concurrency ?? 16;
    const messages = await consumer.consume({ max_messages: concurrency });
    const gauge = async (result: ObservableResult) => {
      const info = await jsm.consumers.info(stream, durable).catch(() => undefined);
      if (!info) return;
      result.observe(info.num_pending, { durable, state: 'pending' });
      result.observe(info.num_ack_pending, { durable, state: 'ack_pending' });
    };
    Metrics.consumerPending().addCallback(gauge);
    this.gauges.push(gauge);
    // A series from the start: the alert's increase() cannot see a counter's first sample go from nothing to 1.
    Metrics.deadLetters().add(0, { durable });
    this.consumers.push({ messages, loop: this.run(binding, messages, concurrency) });
    this.log.debug({ durable, type: event.type }, 'consuming events');
  }

  private async stopConsumers(): Promise<void> {
    for (const gauge of this.gauges.splice(0)) Metrics.consumerPending().removeCallback(gauge);
    const consumers = this.consumers.splice(0);
    await Promise.allSettled(consumers.map(({ messages }) => messages.close()));
    await Promise.allSettled(consumers.map(({ loop }) => loop));
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(binding: Binding, messages: ConsumerMessages, concurrency: number): Promise<void> {
    const mine = new Set<Promise<void>>();
    for await (const msg of messages) {
      const task = this.handle(binding, msg).finally(() => {
        mine.delete(task);
        this.inFlight.delete(task);
      });
      mine.add(task);
      this.inFlight.add(task);
      if (mine.size >= concurrency) await Promise.race(mine);
    }
  }

  private async handle(binding: Binding, msg: JsMsg): Promise<void> {
    const { durable, event } = binding.options;
    const parent = contextFromHeaders(msg.headers);
    const span = tracer.startSpan(
      `${event.type} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.consumer.group.name': durable,
          'messaging.destination.name': msg.subject,
        },
      },
      parent,
    );
    await context.with(trace.setSpan(parent, span), async () => {
      let envelope: Partial<EventEnvelope<unknown>> | undefined;
      let excused = 0;
      try {
        excused = msg.info.deliveryCount > 1 ? await this.deadLetters.excused(durable, msg.seq) : 0;
      } catch (error) {
        // Unknown, so taken as none: an outage or RetryLater may then be charged once more than it should.
        this.log.warn({ err: error, durable, seq: msg.seq }, 'could not read the deliveries excused; charging them');
      }
      const charged = msg.info.deliveryCount - excused;
      try {
        if (charged > binding.budget.maxDeliver) {
          // The earlier charged deliveries ended without an answer: the handler outlived the ack wait, or the
          // process died under it. Running it again would only repeat that.
          await this.deadLetter(msg, binding, envelope, charged - 1, 'never answered within the ack wait', span);
          return;
        }
        envelope = JSON.parse(decoder.decode(msg.data)) as EventEnvelope<unknown>;
        const result: unknown = await binding.handler(envelope, new JetStreamContext([msg]));
        if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
        msg.ack();
        this.outages.recovered('database');
      } catch (error) {
        await this.settleFailed(msg, binding, envelope, error, span, { charged, excused });
      } finally {
        span.end();
      }
    });
  }

  private async settleFailed(
    msg: JsMsg,
    binding: Binding,
    envelope: Partial<EventEnvelope<unknown>> | undefined,
    error: unknown,
    span: ReturnType<typeof tracer.startSpan>,
    counts: { charged: number; excused: number },
  ): Promise<void> {
    const { durable, outageRetryMs = 1000 } = binding.options;
    if (error instanceof SyntaxError || error instanceof InvalidEvent) {
      await this.deadLetter(msg, binding, envelope, counts.charged, `invalid event: ${error.message}`, span);
    } else if (error instanceof RetryLater) {
      await this.excuse(msg, durable, counts.excused + 1);
      msg.nak(error.delayMs);
    } else if (isDatabaseUnavailable(error)) {
      // Every event fails alike until the database is back: logged once per incident, each one retried, uncharged.
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'database unavailable' });
      this.outages.failed('database', error, { consumer: durable });
      await this.excuse(msg, durable, counts.excused + 1);
      msg.nak(outageRetryMs);
    } else {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      const verdict = afterFailure(binding.budget, counts.charged);
      if (verdict.kind === 'dead-letter') {
        await this.deadLetter(msg, binding, envelope, counts.charged, (error as Error)?.message ?? String(error), span);
        return;
      }
      this.log.error(
        {
          err: error,
          event_id: envelope?.id,
          type: envelope?.type,
          durable,
          attempt: counts.charged,
          max_deliver: binding.budget.maxDeliver,
          retry_in_ms: verdict.delayMs,
        },
        'event handler failed; will retry',
      );
      msg.nak(verdict.delayMs);
    }
  }

  /** Records a delivery not charged to the message; on failure it is charged after all (logged). */
  private async excuse(msg: JsMsg, durable: string, excused: number): Promise<void> {
    await this.deadLetters.excuse(durable, msg.seq, excused).catch((error: unknown) => {
      this.log.warn({ err: error, durable, seq: msg.seq }, 'could not record a delivery as excused; it is charged');
    });
  }

  /**
   * Writes the message to the dead-letter stream and terminates it, so the consumer goes on with the next. If the
   * write fails the message is handed back instead (after the last backoff): it is never dropped unwritten.
   */
  private async deadLetter(
    msg: JsMsg,
    binding: Binding,
    envelope: Partial<EventEnvelope<unknown>> | undefined,
    attempts: number,
    error: string,
    span: ReturnType<typeof tracer.startSpan>,
  ): Promise<void> {
    const { durable, handler } = binding.options;
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'dead-lettered' });
    try {
      const letter = await this.deadLetters.write(msg, { durable, handler, error, attempts });
      // No reason text: nats-server 2.9 ignores a `+TERM` that carries one.
      msg.term();
      Metrics.deadLetters().add(1, { durable });
      this.log.error(
        {
          dead_letter: letter.id,
          durable,
          handler,
          event_id: envelope?.id ?? letter.event_id,
          type: envelope?.type ?? letter.event_type,
          attempts,
          reason: error,
        },
        'event dead-lettered; the consumer goes on (npm run admin -- dead-letters show)',
      );
    } catch (writeError) {
      const delayMs = binding.budget.backoffMs[binding.budget.backoffMs.length - 1];
      this.log.error({ err: writeError, durable, seq: msg.seq }, 'could not dead-letter an event; will retry');
      msg.nak(delayMs);
    }
  }
}
