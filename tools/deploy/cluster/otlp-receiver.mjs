#!/usr/bin/env node
// The cluster's trace receiver (deploy/compose/compose.cluster.yaml, service otlp-receiver): OTLP/HTTP with JSON
// bodies, as the services' exporter (@opentelemetry/exporter-trace-otlp-http) sends them, kept in memory so the
// cluster run can read every trace back. It stands where a collector and a trace backend stand in production; it
// only keeps the newest spans (MAX_SPANS) and answers:
//   POST /v1/traces                  an OTLP ExportTraceServiceRequest (JSON); 200 {}
//   GET  /v1/traces?trace_id=<hex>   {"spans":[{trace_id, span_id, parent_span_id, name, kind, service, start_ns,
//                                    end_ns, status_code}]} of that trace
//   GET  /stats                      {"spans": <kept>, "received": <since start>, "requests": <export requests>}
//   GET  /healthz                    200
// node otlp-receiver.mjs --listen 127.0.0.1:14318   (Node's standard library only: it runs on the bare node image)
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { listen: { type: 'string', default: '127.0.0.1:14318' } } });
const [host, port] = values.listen.split(':');
const MAX_SPANS = 500_000;
const MAX_BODY = 32 * 1024 * 1024;

/** trace id -> spans, in arrival order; `order` lets the oldest traces go first when MAX_SPANS is passed. */
const traces = new Map();
let kept = 0;
let received = 0;
let requests = 0;

/** OTLP JSON encodes ids as hex (the spec's JSON mapping) and 64-bit times as strings or numbers. */
function store(body) {
  for (const resourceSpans of body.resourceSpans ?? []) {
    const attributes = resourceSpans.resource?.attributes ?? [];
    const service = attributes.find((a) => a.key === 'service.name')?.value?.stringValue ?? 'unknown';
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        const traceId = String(span.traceId ?? '').toLowerCase();
        if (!traceId) continue;
        let list = traces.get(traceId);
        if (!list) traces.set(traceId, (list = []));
        list.push({
          trace_id: traceId,
          span_id: span.spanId,
          parent_span_id: span.parentSpanId || null,
          name: span.name,
          kind: span.kind,
          service,
          start_ns: String(span.startTimeUnixNano),
          end_ns: String(span.endTimeUnixNano),
          status_code: span.status?.code ?? 0,
        });
        kept += 1;
        received += 1;
      }
    }
  }
  // Forget whole traces, oldest first (a Map iterates in insertion order).
  for (const [traceId, list] of traces) {
    if (kept <= MAX_SPANS) break;
    traces.delete(traceId);
    kept -= list.length;
  }
}

function answer(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://receiver');
  if (request.method === 'POST' && url.pathname === '/v1/traces') {
    if (!String(request.headers['content-type'] ?? '').includes('json')) {
      // The protobuf encoding would need a decoder this receiver does not carry: say so rather than drop spans.
      return answer(response, 415, { error: 'send OTLP/HTTP JSON (the exporter-trace-otlp-http default)' });
    }
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY) return answer(response, 413, { error: 'body too large' });
      try {
        store(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        requests += 1;
        answer(response, 200, {});
      } catch (error) {
        answer(response, 400, { error: `not OTLP JSON: ${error.message}` });
      }
    });
    return;
  }
  if (request.method === 'GET' && url.pathname === '/v1/traces') {
    const traceId = (url.searchParams.get('trace_id') ?? '').toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(traceId)) return answer(response, 400, { error: 'trace_id: 32 hex digits' });
    return answer(response, 200, { spans: traces.get(traceId) ?? [] });
  }
  if (request.method === 'GET' && url.pathname === '/stats')
    return answer(response, 200, { spans: kept, received, requests });
  if (request.method === 'GET' && url.pathname === '/healthz') return answer(response, 200, { ok: true });
  answer(response, 404, { error: 'not found' });
});

server.listen(Number(port), host, () => console.log(`otlp-receiver: listening on http://${host}:${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
