import type { ClientRequest } from 'node:http';
import { request as httpsRequest, Agent, type RequestOptions } from 'node:https';
import type { OnApplicationShutdown } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { Metrics } from '@switchboard/observability';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import {
  connect as tlsConnect,
  createSecureContext,
  rootCertificates,
  TLSSocket,
  type ConnectionOptions,
  type SecureContext,
} from 'node:tls';
import type { WebhookRequest, WebhookResponse, WebhookSender } from './webhook-sender.port';

export interface HttpsWebhookSenderOptions {
  /**
   * A CA to trust on top of the system's, for in-process tests (`WEBHOOK_TEST_CA_FILE`). A deployed dispatcher
   * trusts private receiver CAs through Node's own `NODE_EXTRA_CA_CERTS` instead.
   */
  extraCa?: string | Buffer;
  /** Idle connections kept across every receiver (default MAX_IDLE_CONNECTIONS). */
  maxIdleConnections?: number;
}

const tracer = trace.getTracer('switchboard.webhook-dispatcher');

/** The largest part of a response body read (and thrown away) before the connection is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * How long an idle connection to a receiver is kept for the next attempt: below the common server keep-alive
 * time-outs (Node 5 s, nginx 75 s, load balancers 60 s), so the receiver rarely closes a connection just as it is
 * reused.
 */
export const IDLE_CONNECTION_MS = 4_000;

/**
 * Idle connections kept at once, across every receiver, the least recently used closed first. Each costs the
 * dispatcher about 100 KiB of native memory (OpenSSL's state and buffers; 1,000 kept connections measured 98 KiB
 * each) and a file descriptor: without a bound, a dispatcher sending to a thousand receivers held a thousand of them
 * (docs/adr/0075). 384 keeps a connection to every receiver that gets an event within IDLE_CONNECTION_MS at a few
 * hundred deliveries a second, and at most 38 MiB of them keeps the dispatcher under the 200 MiB it is allowed under
 * load (about 155 MiB besides its idle connections); 128 closed a third of the benchmark's connections just before
 * their receiver's next event, each reopened with a TLS handshake on both sides (docs/adr/0075).
 */
export const MAX_IDLE_CONNECTIONS = 384;

/** Errors of a reused connection the receiver had closed while it was idle: the request never reached it. */
const STALE_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * POSTs over node:https to the address that passed the egress check: the socket goes to `target.address`,
 * while the URL's host name is sent as `Host` and as the TLS server name and is what the certificate must
 * name. No DNS lookup happens here, so a DNS answer that changes after the check cannot redirect the request;
 * node:https never follows redirects.
 *
 * Connections are kept alive and reused per checked address, port and server name (docs/adr/0075): the agent's
 * pool key is made of exactly those, so a connection only ever carries requests to the address that was checked
 * for them, and never requests for another receiver's name. An idle connection is closed after
 * IDLE_CONNECTION_MS (or sooner when the receiver's `Keep-Alive: timeout` says so).
 */
export class HttpsWebhookSender implements WebhookSender, OnApplicationShutdown {
  /**
   * The trusted CAs, parsed once: without it every attempt would build a context of its own from the whole root
   * store. Without `extraCa` it is Node's default store, `NODE_EXTRA_CA_CERTS` included.
   */
  private readonly secureContext: SecureContext;
  /** Keeps connections per checked address and server name (its pool key), idle ones for IDLE_CONNECTION_MS. */
  private readonly agent: SessionResumingAgent;
  /** For the one retry after a stale reused connection: a fresh connection, whatever else the pool holds. */
  private readonly freshAgent = new Agent({ keepAlive: false });

  constructor(options: HttpsWebhookSenderOptions = {}) {
    this.secureContext = createSecureContext(options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {});
    this.agent = new SessionResumingAgent(
      { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' },
      options.maxIdleConnections ?? MAX_IDLE_CONNECTIONS,
    );
  }

  /**
   * One attempt, as a span in the event's trace, whose W3C `traceparent` (and `baggage`) the webhook carries: the
   * receiver's own spans continue the trace from it. The process has no HTTP instrumentation (docs/adr/0117).
   */
  async send(request: WebhookRequest): Promise<WebhookResponse> {
    const span = tracer.startSpan('webhook POST', {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': 'POST',
        // Without its query, where a receiver may keep a token of its own (the egress rule refuses credentials).
        'url.full': `${request.target.url.origin}${request.target.url.pathname}`,
        'server.address': request.target.host,
        'server.port': request.target.port,
        'network.peer.address': request.target.address,
      },
    });
    const headers = { ...request.headers };
    propagation.inject(trace.setSpan(context.active(), span), headers);
    const response = await this.post({ ...request, headers });
    if ('statusCode' in response) {
      span.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode < 200 || response.statusCode >= 300)
        span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${response.statusCode}` });
    } else {
      span.setStatus({ code: SpanStatusCode.ERROR, message: response.error });
    }
    span.end();
    Metrics.webhookAttempts().add(1, { result: attemptResult(response) });
    return response;
  }

  /** Closes every kept connection when the dispatcher stops. */
  onApplicationShutdown(): void {
    this.agent.destroy();
    this.freshAgent.destroy();
  }

  private post(webhook: WebhookRequest, fresh = false): Promise<WebhookResponse> {
    const started = Date.now();
    const { target, body, headers, timeoutMs, captureResponseBytes } = webhook;
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      const settle = (response: WebhookResponse): void => {
        if (settled) return;
        settled = true;
        resolve(response);
      };
      // node:https hands these to tls.connect, which takes `secureContext` (its RequestOptions type leaves it out).
      const options: RequestOptions & Pick<ConnectionOptions, 'secureContext'> = {
        host: target.address,
        family: target.family,
        port: target.port,
        // SNI carries names only; for an IP-literal URL the certificate is checked against the address.
        servername: isIP(target.host) ? undefined : target.host,
        method: 'POST',
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...headers, Host: target.url.host, 'Content-Length': String(body.length) },
        agent: fresh ? this.freshAgent : this.agent,
        secureContext: this.secureContext,
      };
      const request = httpsRequest(options);
      const timer = setTimeout(() => {
        settle({ error: `timed out after ${timeoutMs} ms`, timedOut: true });
        request.destroy();
      }, timeoutMs);
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0;
        const retryAfterHeader = response.headers['retry-after'];
        const retryAfter = typeof retryAfterHeader === 'string' ? { retryAfter: retryAfterHeader } : {};
        // The answer is the status; the body is drained (up to a limit) and thrown away, never logged, unless the
        // caller keeps its first bytes (a test event shows them to the integrator who sent it).
        const keep = Math.min(captureResponseBytes ?? 0, MAX_RESPONSE_BYTES);
        const kept: Buffer[] = [];
        let keptBytes = 0;
        const settleWithBody = () => {
          clearTimeout(timer);
          settle({ statusCode, ...retryAfter, body: Buffer.concat(kept).subarray(0, keep).toString('utf8') });
        };
        if (keep === 0) {
          clearTimeout(timer);
          settle({ statusCode, ...retryAfter });
        } else {
          response.on('end', settleWithBody);
          response.on('close', settleWithBody);
        }
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (keepBytes() > 0) {
            kept.push(chunk);
            keptBytes += chunk.length;
            if (keptBytes >= keep) settleWithBody();
          }
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        function keepBytes(): number {
          return keep - keptBytes;
        }
        response.on('error', () => undefined);
        const cap = setTimeout(() => response.destroy(), timeoutMs);
        cap.unref();
        response.on('close', () => clearTimeout(cap));
      });
      request.on('error', (error: Error & { code?: string }) => {
        clearTimeout(timer);
        // A kept connection the receiver closed while it sat idle fails before the request reaches it: sent once
        // more on a fresh connection (within the attempt's time), as browsers and HTTP clients do.
        const left = timeoutMs - (Date.now() - started);
        if (!settled && request.reusedSocket && STALE_CONNECTION_ERRORS.has(error.code ?? '') && left > 0) {
          settled = true;
          resolve(this.post({ ...webhook, timeoutMs: left }, true));
          return;
        }
        settle({ error: describeNetworkError(error) });
      });
      request.end(body);
    });
  }
}

/**
 * TLS sessions to resume, one per pool key (checked address, port and server name): a receiver's next connection
 * skips the full handshake. Room for the receivers of a busy dispatcher (a session is about 1-2 KiB).
 */
export const MAX_TLS_SESSIONS = 1000;

/** `TLSSocket.prototype.setSession`, where this Node has it (every release since 0.11 does). */
const TLS_SOCKET_SET_SESSION = (TLSSocket.prototype as { setSession?: (session: Buffer) => void }).setSession;

/**
 * node:https's agent, with two changes:
 * - each new connection's TLS session is handed over once. Node 20's `tls.connect` reads a `session` option twice
 *   (the socket's constructor sets it, then `connect` sets it again), and reading one (it holds the receiver's
 *   certificates) was a fifth of a resumed connection's CPU on this machine; here the socket is made without it and
 *   given the session once, before its handshake starts. The sessions are kept here, by the agent's own pool key, as
 *   node:https keeps them (newest kept, dropped after a connection that failed);
 * - at most `maxIdleConnections` idle connections are kept, whatever their receivers: when one more is set aside,
 *   the one idle longest is closed (node:https bounds them per receiver only).
 */
export class SessionResumingAgent extends Agent {
  private readonly sessions = new Map<string, Buffer>();
  /** The idle connections, the one idle longest first. */
  private readonly idle = new Set<Socket>();

  constructor(
    options: ConstructorParameters<typeof Agent>[0],
    private readonly maxIdleConnections: number,
  ) {
    super(options);
  }

  /** Called by the agent when a request is done with `socket` and it would keep it: closes the one idle longest. */
  override keepSocketAlive(socket: Socket): boolean {
    // Node's documentation: a falsy answer has the agent close the socket (its type in @types/node says `void`).
    if (!(super.keepSocketAlive(socket) as unknown as boolean)) return false;
    this.idle.add(socket);
    if (this.idle.size > this.maxIdleConnections) {
      const longest = this.idle.values().next().value as Socket;
      this.idle.delete(longest);
      // The agent drops it from its pool when it closes.
      longest.destroy();
    }
    return true;
  }

  override reuseSocket(socket: Socket, request: ClientRequest): void {
    this.idle.delete(socket);
    super.reuseSocket(socket, request);
  }

  override createConnection(options: ConnectionOptions & RequestOptions): Socket {
    const key = this.getName(options);
    const { session: _fromNode, ...connect } = options;
    const session = this.sessions.get(key);
    let socket: TLSSocket;
    if (session && typeof TLS_SOCKET_SET_SESSION === 'function') {
      socket = tlsConnect(connect);
      // What tls.connect itself calls after the constructor; not in Node's types, hence checked for above.
      TLS_SOCKET_SET_SESSION.call(socket, session);
    } else {
      socket = tlsConnect(session ? { ...connect, session } : connect);
    }
    socket.on('session', (next: Buffer) => {
      this.sessions.delete(key);
      this.sessions.set(key, next);
      if (this.sessions.size > MAX_TLS_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    });
    socket.once('close', (hadError: boolean) => {
      this.idle.delete(socket);
      if (hadError) this.sessions.delete(key);
    });
    return socket;
  }
}

/** The attempt's result as a metric label: few values, so alerts can use them. */
export function attemptResult(
  response: WebhookResponse,
): 'success' | 'redirect' | 'client_error' | 'server_error' | 'timeout' | 'network_error' {
  if (!('statusCode' in response)) return response.timedOut ? 'timeout' : 'network_error';
  if (response.statusCode >= 200 && response.statusCode < 300) return 'success';
  if (response.statusCode >= 300 && response.statusCode < 400) return 'redirect';
  return response.statusCode < 500 ? 'client_error' : 'server_error';
}

/** A short reason for the delivery log, without anything secret (no headers, no body). */
export function describeNetworkError(error: Error & { code?: string }): string {
  const code = error.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'receiver unreachable';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS certificate not trusted (${code})`;
    default:
      return code ? `request failed (${code})` : `request failed (${error.message})`;
  }
}
