import { ServerNats, type CustomTransportStrategy, type NatsContext } from '@nestjs/microservices';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { SpanKind, context, trace } from '@opentelemetry/api';
import type { RpcErrorBody, ServiceName } from '@switchboard/contracts';
import type { Logger } from '@switchboard/observability';
import { rpcSubject, type MessagingConfig } from './messaging.config';
import type { NatsLink } from './nats-link';
import type { OutageLog } from './outage-log';
import { contextFromHeaders } from './trace-context';

const tracer = trace.getTracer('switchboard.messaging');
const encoder = new TextEncoder();

/** What Nest's reply carries (its `WritePacket`). */
interface ReplyPacket {
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

export interface NatsRpcServerOptions {
  link: NatsLink;
  config: MessagingConfig;
  service: ServiceName;
  logger: Logger;
  /** The request handlers' outage log (`RPC_OUTAGES`): a request served ends a database incident. */
  outages: OutageLog;
}

/**
 * Nest's NATS server (`Transport.NATS`) for one service's `@RpcPattern` handlers, configured as the bus needs it:
 * - on the process's one connection (`NatsLink`: the service's NATS user, its inbox prefix), not one of its own;
 * - each pattern served below the deployment prefix (`rpcSubject`), in a queue group named after the service so
 *   replicas share the load (Nest's `queue` option);
 * - each request in a span that continues the caller's trace from the `traceparent` header;
 * - a closing server stops taking requests, lets those started finish, and leaves the connection to its owner
 *   (Nest's own close would wait a fixed grace period, then close the connection).
 */
export class NatsRpcServer extends ServerNats implements CustomTransportStrategy {
  private readonly served: Subscription[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly rpc: NatsRpcServerOptions) {
    super({ queue: rpc.service });
  }

  override async createNatsClient(): Promise<NatsConnection> {
    return this.rpc.link.connected();
  }

  /** The link logs the connection's changes of state once each; Nest's would log them again as errors. */
  override async handleStatusUpdates(): Promise<void> {}

  override bindEvents(client: NatsConnection): void {
    for (const [pattern, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? this.rpc.service;
      const subject = rpcSubject(this.rpc.config, pattern);
      // Nest types its handler as `Function`; it is the subscription callback ServerNats itself binds.
      const callback = this.getMessageHandler(pattern).bind(this) as (error: Error | null, msg: Msg) => void;
      this.served.push(client.subscribe(subject, { queue, callback }));
      this.rpc.logger.debug({ subject, queue }, 'serving rpc');
    }
  }

  /**
   * The handler of a request is found by its pattern as bound (`bindEvents` subscribes each of `messageHandlers`' own
   * keys, plain subject strings). Nest's lookup first tries `JSON.parse` on the pattern, for object patterns, which
   * throws, and so captures a stack, on every request to a plain subject.
   */
  protected override getRouteFromPattern(pattern: string): string {
    return pattern;
  }

  override handleMessage(channel: string, msg: Msg): Promise<unknown> {
    const handled = this.traced(channel, msg).finally(() => this.inFlight.delete(handled));
    this.inFlight.add(handled);
    return handled;
  }

  override getPublisher(msg: Msg, id: string, ctx: NatsContext): (packet: ReplyPacket) => unknown {
    const publish: (packet: ReplyPacket) => unknown = super.getPublisher(msg, id, ctx);
    return (packet) => {
      if (packet.err === undefined) this.rpc.outages.recovered('database');
      return publish(packet);
    };
  }

  /** A message without Nest's packet id is not a request of ours (a plain publish): it is not run as an event. */
  override handleEvent(channel: string): Promise<void> {
    this.rpc.logger.warn({ subject: rpcSubject(this.rpc.config, channel) }, 'message without a request id ignored');
    return Promise.resolve();
  }

  override async close(): Promise<void> {
    for (const subscription of this.served.splice(0)) subscription.unsubscribe();
    await Promise.allSettled([...this.inFlight]);
    // The replies of the last requests are published on the next tick (Nest's `send`); the link drains them.
    await new Promise((resolve) => setImmediate(resolve));
  }

  private async traced(channel: string, msg: Msg): Promise<void> {
    const parent = contextFromHeaders(msg.headers);
    const span = tracer.startSpan(
      `${channel} process`,
      { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject } },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), () => super.handleMessage(channel, msg));
    } catch (error) {
      // Nest's JSON deserializer failed: the message is not a request it can read.
      if (!(error instanceof SyntaxError)) throw error;
      span.setAttribute('switchboard.error_code', 'invalid_request');
      const err: RpcErrorBody = { code: 'invalid_request', message: 'The message is not valid JSON.' };
      if (msg.reply) msg.respond(encoder.encode(JSON.stringify({ err, isDisposed: true })));
    } finally {
      span.end();
    }
  }
}
