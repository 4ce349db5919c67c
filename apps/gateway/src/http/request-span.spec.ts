import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createLogger } from '@switchboard/observability';
import type { FastifyInstance } from 'fastify';
import { loadGatewayConfig } from '../config/gateway.config';
import { createFastifyAdapter } from './fastify-adapter';

// Spans recorded in memory, the context kept by AsyncLocalStorage, as in the gateway when it exports.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe("the gateway's request spans", () => {
  let fastify: FastifyInstance;
  let base: string;
  const logLines: Array<Record<string, unknown>> = [];
  // What the handlers saw as the active span, by request.
  const seen: Record<string, string | undefined> = {};
  const activeSpanId = () => trace.getActiveSpan()?.spanContext().spanId;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        callback();
      },
    });
    const config = loadGatewayConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' });
    const logger = createLogger('request-span-spec', 'info', sink);
    fastify = createFastifyAdapter(config, logger, { server: 'public' }).getInstance<FastifyInstance>();
    fastify.get('/things/:id', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen[request.headers['x-request-id'] as string] = activeSpanId();
      return { ok: true };
    });
    // Past the body's reads: the handler runs after the socket's later data events.
    fastify.post('/things', async (request) => {
      seen[request.headers['x-request-id'] as string] = activeSpanId();
      return { got: request.body };
    });
    fastify.get('/broken', async () => {
      throw new Error('boom');
    });
    fastify.get('/slow', async () => new Promise(() => undefined));
    fastify.get('/healthz', async () => ({ ok: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${portOf(fastify)}`;
  });
  afterAll(async () => {
    await fastify.close();
    await provider.shutdown();
  });
  beforeEach(() => {
    exporter.reset();
    logLines.length = 0;
  });

  async function spans(count: number): Promise<ReadableSpan[]> {
    for (let i = 0; i < 100 && exporter.getFinishedSpans().length < count; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return exporter.getFinishedSpans();
  }

  it("makes one server span named by the route, active in the handler, with the request's attributes", async () => {
    const response = await fetch(`${base}/things/42?x=1`, { headers: { 'x-request-id': 'req-get' } });
    expect(response.status).toBe(200);
    const [span, ...others] = await spans(1);
    expect(others).toEqual([]);
    expect(span.name).toBe('GET /things/:id');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/things/:id',
      'http.response.status_code': 200,
      'switchboard.request_id': 'req-get',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(seen['req-get']).toBe(span.spanContext().spanId);
    // The access log line leads to the span.
    const access = logLines.find((line) => line.msg === 'request');
    expect(access).toMatchObject({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
  });

  it("continues the caller's trace", async () => {
    await fetch(`${base}/things/1`, {
      headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, 'x-request-id': 'req-parent' },
    });
    const [span] = await spans(1);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it('keeps the span active for a handler that runs after the body is read', async () => {
    // The body arrives in a later read of the socket than the request's head.
    const body = JSON.stringify({ name: 'thing' });
    const socket = connect({ port: portOf(fastify), host: '127.0.0.1' });
    let answer = '';
    const answered = new Promise<void>((resolve) =>
      socket.on('data', (chunk) => {
        answer += chunk.toString();
        if (answer.includes('\r\n\r\n')) resolve();
      }),
    );
    socket.write(
      `POST /things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        'X-Request-Id: req-post\r\n\r\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    socket.write(body);
    await answered;
    const [span] = await spans(1);
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(span.name).toBe('POST /things');
    expect(seen['req-post']).toBe(span.spanContext().spanId);
  });

  it('marks a server error, and names a request no route matched by its method', async () => {
    expect((await fetch(`${base}/broken`)).status).toBe(500);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
    const finished = await spans(2);
    const broken = finished.find((s) => s.name === 'GET /broken')!;
    expect(broken.status.code).toBe(SpanStatusCode.ERROR);
    expect(broken.attributes['http.response.status_code']).toBe(500);
    const unmatched = finished.find((s) => s.name === 'GET')!;
    expect(unmatched.attributes['http.response.status_code']).toBe(404);
    expect(unmatched.attributes['http.route']).toBeUndefined();
  });

  it('ends the span of a request whose client leaves before the answer', async () => {
    const socket = connect({ port: portOf(fastify), host: '127.0.0.1' });
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const [span] = await spans(1);
    expect(span.name).toBe('GET /slow');
  });

  it('leaves probes untraced', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/healthz?probe=1`)).status).toBe(200);
    await fetch(`${base}/things/2`);
    expect((await spans(1)).map((s) => s.name)).toEqual(['GET /things/:id']);
  });
});

function portOf(fastify: FastifyInstance): number {
  return (fastify.server.address() as { port: number }).port;
}
