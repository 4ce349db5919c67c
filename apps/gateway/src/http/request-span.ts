import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';
import { isProbeRequest } from '@switchboard/observability';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const tracer = trace.getTracer('switchboard.gateway');
const SPAN = Symbol('switchboard.requestSpan');

type TracedMessage = IncomingMessage & { [SPAN]?: Span };
type RequestListener = (this: Server, req: IncomingMessage, res: ServerResponse) => void;

/**
 * One server span per request, from its arrival to its answer, named by its route (docs/adr/0117). It continues an
 * incoming `traceparent`, and everything the request runs (Fastify's hooks, guards, the handler, the NATS request,
 * log lines) runs with it active. The gateway makes it itself rather than through OpenTelemetry's HTTP
 * instrumentation, whose incoming side is off here (tracing.ts): the instrumentation's span, with the attributes it
 * derives from every request and the listeners it wraps on both streams, cost the gateway about a fifth of its CPU
 * per list request under the profiler, and the route's span beside it made two server spans for one request.
 *
 * Fastify's request listener is the server's only one when the instance is created: it is wrapped so that the span's
 * context is active from the first hook on (Fastify carries the request's context past the reads of its body itself,
 * content-type-parser.js). Probes and scrapes are not traced (`isProbeRequest`).
 */
export function traceRequests(fastify: FastifyInstance): void {
  const server = fastify.server;
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`expected Fastify's one request listener, found ${listeners.length}`);
  const [handle] = listeners;
  server.removeListener('request', handle);
  server.on('request', function tracedRequest(this: Server, req: TracedMessage, res: ServerResponse) {
    if (isProbeRequest(req.url)) return handle.call(this, req, res);
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      req.method ?? 'HTTP',
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    req[SPAN] = span;
    const active = trace.setSpan(parent, span);
    // A client that leaves before its answer gets no `onResponse`; a span that is recorded is ended all the same.
    if (span.isRecording()) res.once('close', () => endSpan(span, res.statusCode));
    context.with(active, handle, this, req, res);
  });
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const span = requestSpan(request);
    if (span?.isRecording()) {
      const route = request.routeOptions?.url;
      if (route) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
      span.setAttribute('switchboard.request_id', String(request.id));
    }
    done();
  });
}

/** The request's span (none for probes, or for a request that did not come through `traceRequests`' server). */
export function requestSpan(request: FastifyRequest): Span | undefined {
  return (request.raw as TracedMessage)[SPAN];
}

/** Ends the request's span with its answer's status (an error span from 500 on). */
export function endRequestSpan(request: FastifyRequest, status: number): void {
  const span = requestSpan(request);
  if (span) endSpan(span, status);
}

function endSpan(span: Span, status: number): void {
  // Ended spans stop recording; one that never recorded has nothing to end.
  if (!span.isRecording()) return;
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
