import { Inject, Injectable } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
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
}

const tracer = trace.getTracer('switchboard.messaging');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

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
    const span = tracer.startSpan(`${rpc.subject} request`, {
      kind: SpanKind.CLIENT,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
    });
    try {
      const headers = headersWithTrace(trace.setSpan(context.active(), span));
      if (options.accountId) headers.set(HEADERS.accountId, options.accountId);
      if (options.requestId) headers.set(HEADERS.requestId, options.requestId);
      const msg = await RequestMux.of(nc).request(subject, encoder.encode(JSON.stringify(payload)), {
        timeoutMs: options.timeoutMs ?? this.config.requestTimeoutMs,
        headers,
      });
      const reply = JSON.parse(decoder.decode(msg.data)) as RpcReply<Res>;
      if (reply.ok) return reply.data;
      const code = isErrorCode(reply.error.code) ? reply.error.code : 'internal_error';
      span.setAttribute('switchboard.error_code', code);
      outcome = code;
      throw new ServiceError(code, reply.error.message, reply.retry_after_seconds);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      outcome = 'unavailable';
      throw toServiceError(error, rpc.subject);
    } finally {
      span.end();
      Metrics.rpcClientDuration().record((performance.now() - started) / 1000, { subject: rpc.subject, outcome });
    }
  }
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
