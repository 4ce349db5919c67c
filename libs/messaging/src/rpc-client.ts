import { Inject, Injectable } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, trace, type Context, type Span } from '@opentelemetry/api';
import { errors as natsErrors, type NatsConnection } from '@nats-io/transport-node';
import { HEADERS, ServiceError, isErrorCode, type RpcDescriptor, type RpcReply } from '@switchboard/contracts';
import { Metrics } from '@switchboard/observability';
import { NatsLink } from './nats-link';
import { RequestMux } from './request-mux';
import { MESSAGING_CONFIG, NATS_LINK } from './tokens';
import { rpcSubject, type MessagingConfig } from './messaging.config';
import { headersWithTrace } from './trace-context';

export interface RpcCallOptions {
  accountId?: string;
  requestId?: string;
  timeoutMs?: number;
  /**
   * A public API key's mode, for an answer passed on as the service wrote it: the service sets `livemode` on its
   * reply (HEADERS.livemode, docs/adr/0115).
   */
  livemode?: boolean;
}

const tracer = trace.getTracer('switchboard.messaging');
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** How a success reply begins: rpc-server.ts writes `{ ok: true, data }`, in that order. */
const OK_PREFIX = encoder.encode('{"ok":true,"data":');
const CLOSING_BRACE = 0x7d;

/**
 * Sends a typed request to the service that owns it and returns its reply, or throws the `ServiceError` the
 * service answered. No service listening, none answering in time, or no connection to NATS at all is
 * `service_unavailable` (503).
 */
@Injectable()
export class RpcClient {
  private readonly link: NatsLink;

  /** `nc`: the process's link to NATS (which may not be connected yet), or an open connection to follow. */
  constructor(
    @Inject(NATS_LINK) nc: NatsLink | NatsConnection,
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
  ) {
    this.link = nc instanceof NatsLink ? nc : NatsLink.follow(nc);
  }

  async request<Req extends object, Res>(
    rpc: RpcDescriptor<Req, Res>,
    payload: Req,
    options: RpcCallOptions = {},
  ): Promise<Res> {
    return this.exchange(rpc, payload, options, (data) => {
      const reply = JSON.parse(decoder.decode(data)) as RpcReply<Res>;
      if (reply.ok) return reply.data;
      throw refusal(reply);
    });
  }

  /**
   * The reply's `data` as the JSON the service wrote it, not parsed: for an answer passed on as it is (docs/adr/0115;
   * the gateway's JSON.parse and serialisation of the calls list were about 8% of its CPU). A refusal is thrown as by
   * `request`.
   */
  async requestJson<Req extends object>(
    rpc: RpcDescriptor<Req, unknown>,
    payload: Req,
    options: RpcCallOptions = {},
  ): Promise<Uint8Array> {
    return this.exchange(rpc, payload, options, (data) => {
      if (startsWith(data, OK_PREFIX) && data[data.length - 1] === CLOSING_BRACE) {
        return data.subarray(OK_PREFIX.length, data.length - 1);
      }
      // Any other reply (a refusal; a success without data) is read as `request` reads it.
      const reply = JSON.parse(decoder.decode(data)) as RpcReply<unknown>;
      if (reply.ok) return encoder.encode(JSON.stringify(reply.data ?? null));
      throw refusal(reply);
    });
  }

  /** Sends the request and reads its reply with `read`, which throws the service's refusal as a `ServiceError`. */
  private async exchange<Req extends object, T>(
    rpc: RpcDescriptor<Req, unknown>,
    payload: Req,
    options: RpcCallOptions,
    read: (data: Uint8Array) => T,
  ): Promise<T> {
    const subject = rpcSubject(this.config, rpc.subject);
    // Not connected (not yet, or reconnecting): a request would wait its whole time-out (30 s on some operator
    // routes) for a reply that cannot come, so it is refused at once.
    const nc = this.link.connection;
    if (!nc || this.link.state !== 'connected' || nc.isClosed()) {
      Metrics.rpcClientDuration().record(0, { subject: rpc.subject, outcome: 'disconnected' });
      throw new ServiceError(
        'service_unavailable',
        `The message bus is unreachable, so ${rpc.subject} cannot be asked; retry shortly.`,
      );
    }
    const started = performance.now();
    let outcome = 'ok';
    const active = context.active();
    const span = clientSpan(active, rpc.subject, subject);
    try {
      const headers = headersWithTrace(span ? trace.setSpan(active, span) : active);
      if (options.accountId) headers.set(HEADERS.accountId, options.accountId);
      if (options.requestId) headers.set(HEADERS.requestId, options.requestId);
      if (options.livemode !== undefined) headers.set(HEADERS.livemode, String(options.livemode));
      const msg = await RequestMux.of(nc).request(subject, encoder.encode(JSON.stringify(payload)), {
        timeoutMs: options.timeoutMs ?? this.config.requestTimeoutMs,
        headers,
      });
      return read(msg.data);
    } catch (error) {
      if (error instanceof ServiceError) {
        span?.setAttribute('switchboard.error_code', error.code);
        outcome = error.code;
        throw error;
      }
      span?.recordException(error as Error);
      span?.setStatus({ code: SpanStatusCode.ERROR });
      outcome = 'unavailable';
      throw toServiceError(error, rpc.subject);
    } finally {
      span?.end();
      Metrics.rpcClientDuration().record((performance.now() - started) / 1000, { subject: rpc.subject, outcome });
    }
  }
}

/**
 * The request's span, a child of the active one; none when the active span is not recorded (spans are not exported,
 * or its trace was not sampled): its child would not be recorded either, and the `traceparent` sent on carries the
 * same trace with the active span as its parent (docs/adr/0119). Making and ending that span was about 1% of the
 * gateway's CPU per list request.
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

/** The service's refusal (an error reply) as the `ServiceError` it answered. */
function refusal(reply: Extract<RpcReply<unknown>, { ok: false }>): ServiceError {
  const code = isErrorCode(reply.error.code) ? reply.error.code : 'internal_error';
  return new ServiceError(code, reply.error.message, reply.retry_after_seconds);
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (data[i] !== prefix[i]) return false;
  return true;
}

function toServiceError(error: unknown, subject: string): ServiceError {
  if (error instanceof natsErrors.NoRespondersError || (error as Error)?.message?.includes('503')) {
    return new ServiceError('service_unavailable', `No service is answering ${subject}; retry shortly.`);
  }
  if (error instanceof natsErrors.TimeoutError || (error as Error)?.name === 'TimeoutError') {
    return new ServiceError(
      'service_unavailable',
      `The service behind ${subject} did not answer in time; retry shortly.`,
    );
  }
  if (error instanceof natsErrors.RequestError) {
    return new ServiceError('service_unavailable', `The request to ${subject} failed; retry shortly.`);
  }
  return new ServiceError('service_unavailable', `The request to ${subject} could not be delivered; retry shortly.`);
}
