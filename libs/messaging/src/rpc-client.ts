import { ClientNats, NatsRecord, type ReadPacket, type WritePacket } from '@nestjs/microservices';
// Not re-exported by the package's index; its `./*` export serves it.
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import {
  RequestError,
  TimeoutError as NatsTimeoutError,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
} from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode, context, trace, type Context, type Span } from '@opentelemetry/api';
import { HEADERS, ServiceError, isErrorCode, type RpcDescriptor, type RpcErrorBody } from '@switchboard/contracts';
import { Metrics } from '@switchboard/observability';
import { firstValueFrom } from 'rxjs';
import { rpcSubject, type MessagingConfig } from './messaging.config';
import { NatsLink } from './nats-link';
import { headersWithTrace } from './trace-context';

export interface RpcCallOptions {
  accountId?: string;
  requestId?: string;
  timeoutMs?: number;
}

const tracer = trace.getTracer('switchboard.messaging');

/** `request`'s time-out when a packet carries none (`RpcClient` always gives one). */
const DEFAULT_TIMEOUT_MS = 5000;

/** Thrown by `LinkedClientNats.connect` while the link is not connected. */
class BusUnreachable extends Error {}

/** A request's payload and headers (Nest's `NatsRecord`) with how long its reply may take. */
export class TimedNatsRecord<TData = unknown> extends NatsRecord<TData, MsgHdrs> {
  constructor(
    data: TData,
    headers: MsgHdrs,
    readonly timeoutMs: number,
  ) {
    super(data, headers);
  }
}

/**
 * Nest's NATS client on the process's one connection (`NatsLink`), not one of its own: replies come to the
 * connection's inbox prefix (the service's own, `inboxPrefix`, the only one its NATS user may read), and a request made while the link
 * is not connected fails at once instead of waiting in the client's reconnect buffer for its whole time-out.
 *
 * Requests go through the connection's own `request`, which takes every reply on one subscription per connection
 * (`<inboxPrefix>.<id>.*`) and tells the replies apart by the last token. Nest's `publish` subscribes to a new inbox
 * for each request and unsubscribes after the reply (SUB, PUB, UNSUB per request): that churn costs the server, and in
 * a cluster every SUB and UNSUB is sent across the routes to the other nodes. Every reply of ours is one message
 * (handlers answer one value, which Nest's `send` publishes with `isDisposed`), which is what `request` waits for.
 */
export class LinkedClientNats extends ClientNats {
  constructor(private readonly link: NatsLink) {
    super({});
  }

  /** The link owns the connection; a request while it is down fails at once (a rejected promise, as Nest expects). */
  override connect(): Promise<NatsConnection> {
    const nc = this.link.connection;
    if (!nc || this.link.state !== 'connected' || nc.isClosed()) return Promise.reject(new BusUnreachable());
    this.natsClient = nc;
    return Promise.resolve(nc);
  }

  /**
   * Nest's `ClientProxy.send` calls this with the packet and the callback that feeds its observable; the answer
   * detaches that callback (the caller unsubscribed). `request`'s own timer is the request's time-out: it removes the
   * waiting entry from the connection's reply map when it fires.
   */
  protected override publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const packet = this.assignPacketId(partialPacket);
    let waiting = true;
    const settle = (reply: WritePacket) => {
      if (!waiting) return;
      waiting = false;
      this.routingMap.delete(packet.id);
      callback(reply);
    };
    // Nest's `handleClose` ends the requests still in the routing map.
    this.routingMap.set(packet.id, settle);
    try {
      const subject = this.normalizePattern(partialPacket.pattern as string);
      const serialized = this.serializer.serialize(packet) as { data: string; headers?: MsgHdrs };
      const timeoutMs = packet.data instanceof TimedNatsRecord ? packet.data.timeoutMs : DEFAULT_TIMEOUT_MS;
      (this.natsClient as NatsConnection)
        .request(subject, serialized.data, {
          timeout: timeoutMs,
          headers: this.mergeHeaders<MsgHdrs>(serialized.headers) as MsgHdrs,
        })
        .then(
          (msg) => this.readReply(subject, msg),
          (error: unknown) => ({ err: requestFailure(error, subject) }),
        )
        .then(settle, (error: unknown) => settle({ err: error }));
    } catch (error) {
      settle({ err: error });
    }
    return () => {
      waiting = false;
      this.routingMap.delete(packet.id);
    };
  }

  /** The reply, as Nest's own subscription handler reads it: an empty one is NATS's "no responders". */
  private async readReply(subject: string, msg: Msg): Promise<WritePacket> {
    if (msg.data.length === 0) return { err: new EmptyResponseException(subject), isDisposed: true };
    const reply = (await this.deserializer.deserialize(msg)) as WritePacket<unknown>;
    return { err: reply.err as unknown, response: reply.response, isDisposed: true };
  }

  /** Ends the requests still waiting; the connection is the link's to close. */
  override close(): Promise<void> {
    this.handleClose();
    this.natsClient = null;
    return Promise.resolve();
  }
}

/**
 * Sends a typed request to the service that owns it (Nest's `ClientProxy.send`, below the deployment prefix) and
 * returns its reply, or throws the `ServiceError` the service answered. The caller's account and request id and the
 * W3C trace context travel in headers (`NatsRecordBuilder`). No service listening, none answering in time, or no
 * connection to NATS at all is `service_unavailable` (503).
 */
export class RpcClient {
  private readonly link: NatsLink;
  private readonly client: LinkedClientNats;

  /**
   * `nc`: the process's link to NATS (which may not be connected yet), or an open connection to follow. Replies come
   * to that connection's inbox prefix (`connectNats` sets the service's own).
   */
  constructor(
    nc: NatsLink | NatsConnection,
    private readonly config: MessagingConfig,
  ) {
    this.link = nc instanceof NatsLink ? nc : NatsLink.follow(nc);
    this.client = new LinkedClientNats(this.link);
  }

  async request<Req extends object, Res>(
    rpc: RpcDescriptor<Req, Res>,
    payload: Req,
    options: RpcCallOptions = {},
  ): Promise<Res> {
    const subject = rpcSubject(this.config, rpc.subject);
    const started = performance.now();
    let outcome = 'ok';
    const active = context.active();
    const span = clientSpan(active, rpc.subject, subject);
    try {
      const headers = headersWithTrace(span ? trace.setSpan(active, span) : active);
      if (options.accountId) headers.set(HEADERS.accountId, options.accountId);
      if (options.requestId) headers.set(HEADERS.requestId, options.requestId);
      const record = new TimedNatsRecord(payload, headers, options.timeoutMs ?? this.config.requestTimeoutMs);
      // A handler that answers nothing (undefined) completes without a value.
      return await firstValueFrom(this.client.send<Res>(subject, record), { defaultValue: undefined as Res });
    } catch (error) {
      const refused = toServiceError(error, rpc.subject);
      outcome = isRefusal(error) ? refused.code : error instanceof BusUnreachable ? 'disconnected' : 'unavailable';
      if (isRefusal(error)) span?.setAttribute('switchboard.error_code', refused.code);
      else {
        span?.recordException(error as Error);
        span?.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw refused;
    } finally {
      span?.end();
      Metrics.rpcClientDuration().record((performance.now() - started) / 1000, { subject: rpc.subject, outcome });
    }
  }

  /** Ends the requests still waiting (the gateway's servers are closing). */
  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * The request's span, a child of the active one; none when the active span is not recorded (spans are not exported,
 * or its trace was not sampled): its child would not be recorded either, and the `traceparent` sent on carries the
 * same trace with the active span as its parent (docs/adr/0117).
 */
function clientSpan(active: Context, name: string, subject: string): Span | undefined {
  const parent = trace.getSpan(active);
  if (parent && !parent.isRecording()) return undefined;
  return tracer.startSpan(
    `${name} request`,
    { kind: SpanKind.CLIENT, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
    active,
  );
}

/** The service's refusal, as `RpcErrorFilter` wrote it (or Nest's own `{ status, message }` for an error it caught). */
function isRefusal(error: unknown): error is Partial<RpcErrorBody> & { message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof Error) &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

function toServiceError(error: unknown, subject: string): ServiceError {
  if (isRefusal(error)) {
    const code = typeof error.code === 'string' && isErrorCode(error.code) ? error.code : 'internal_error';
    return new ServiceError(code, error.message, error.retry_after_seconds);
  }
  if (error instanceof BusUnreachable) {
    return new ServiceError(
      'service_unavailable',
      `The message bus is unreachable, so ${subject} cannot be asked; retry shortly.`,
    );
  }
  // NATS answers a request nobody subscribes to with an empty 503 message.
  if (error instanceof EmptyResponseException) {
    return new ServiceError('service_unavailable', `No service is answering ${subject}; retry shortly.`);
  }
  if (error instanceof NatsTimeoutError) {
    return new ServiceError(
      'service_unavailable',
      `The service behind ${subject} did not answer in time; retry shortly.`,
    );
  }
  return new ServiceError('service_unavailable', `The request to ${subject} could not be delivered; retry shortly.`);
}

/** `request`'s failure as Nest's own client reports it: "no responders" is the empty reply Nest turns into an error. */
function requestFailure(error: unknown, subject: string): unknown {
  if (error instanceof RequestError && error.isNoResponders()) return new EmptyResponseException(subject);
  return error;
}
