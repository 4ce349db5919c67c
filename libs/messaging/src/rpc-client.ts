import { ClientNats, NatsRecordBuilder } from '@nestjs/microservices';
// Not re-exported by the package's index; its `./*` export serves it.
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode, context, trace, type Context, type Span } from '@opentelemetry/api';
import { HEADERS, ServiceError, isErrorCode, type RpcDescriptor, type RpcErrorBody } from '@switchboard/contracts';
import { Metrics } from '@switchboard/observability';
import { TimeoutError, firstValueFrom, timeout } from 'rxjs';
import { rpcSubject, type MessagingConfig } from './messaging.config';
import { NatsLink } from './nats-link';
import { headersWithTrace } from './trace-context';

export interface RpcCallOptions {
  accountId?: string;
  requestId?: string;
  timeoutMs?: number;
}

const tracer = trace.getTracer('switchboard.messaging');

/** Thrown by `LinkedClientNats.connect` while the link is not connected. */
class BusUnreachable extends Error {}

/**
 * Nest's NATS client on the process's one connection (`NatsLink`), not one of its own: replies come to the
 * service's own inbox prefix (`inboxPrefix`, the only one its NATS user may read), and a request made while the link
 * is not connected fails at once instead of waiting in the client's reconnect buffer for its whole time-out.
 */
export class LinkedClientNats extends ClientNats {
  constructor(
    private readonly link: NatsLink,
    inboxPrefix?: string,
  ) {
    super(inboxPrefix ? { inboxPrefix } : {});
  }

  /** The link owns the connection; a request while it is down fails at once (a rejected promise, as Nest expects). */
  override connect(): Promise<NatsConnection> {
    const nc = this.link.connection;
    if (!nc || this.link.state !== 'connected' || nc.isClosed()) return Promise.reject(new BusUnreachable());
    this.natsClient = nc;
    return Promise.resolve(nc);
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
   * `nc`: the process's link to NATS (which may not be connected yet), or an open connection to follow.
   * `inboxPrefix`: the service's own (`inboxPrefix(service)`); unset, NATS's default `_INBOX`.
   */
  constructor(
    nc: NatsLink | NatsConnection,
    private readonly config: MessagingConfig,
    inboxPrefix?: string,
  ) {
    this.link = nc instanceof NatsLink ? nc : NatsLink.follow(nc);
    this.client = new LinkedClientNats(this.link, inboxPrefix);
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
      const record = new NatsRecordBuilder(payload).setHeaders(headers).build();
      const reply$ = this.client
        .send<Res>(subject, record)
        .pipe(timeout({ first: options.timeoutMs ?? this.config.requestTimeoutMs }));
      // A handler that answers nothing (undefined) completes without a value.
      return await firstValueFrom(reply$, { defaultValue: undefined as Res });
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
 * same trace with the active span as its parent (docs/adr/0119).
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
  if (error instanceof TimeoutError) {
    return new ServiceError(
      'service_unavailable',
      `The service behind ${subject} did not answer in time; retry shortly.`,
    );
  }
  return new ServiceError('service_unavailable', `The request to ${subject} could not be delivered; retry shortly.`);
}
