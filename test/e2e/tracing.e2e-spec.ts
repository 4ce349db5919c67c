import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createServer, type Server } from 'node:https';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(60_000);

// An in-memory exporter in place of OTLP: every span the gateway and the services make in this process.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

function spanNamed(spans: ReadableSpan[], name: string): ReadableSpan {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
  return span;
}

async function settledSpans(count: number): Promise<ReadableSpan[]> {
  for (let i = 0; i < 50 && exporter.getFinishedSpans().length < count; i++)
    await new Promise((r) => setTimeout(r, 20));
  return exporter.getFinishedSpans();
}

describe('one trace per request across the gateway and the services', () => {
  let system: RunningSystem;
  let session: ApiSession;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing'] });
    session = await ApiSession.create(system);
  });
  afterAll(async () => {
    await system?.stop();
  });
  beforeEach(() => exporter.reset());

  it('links the HTTP span, the NATS request and the service handler as parent and children', async () => {
    expect((await session.get('/numbers')).status).toBe(200);
    const spans = await settledSpans(3);
    const http = spanNamed(spans, 'GET /v1/numbers');
    const request = spanNamed(spans, 'numbers.v1.list request');
    const handler = spanNamed(spans, 'numbers.v1.list process');

    expect(http.kind).toBe(SpanKind.SERVER);
    expect(request.kind).toBe(SpanKind.CLIENT);
    expect(handler.kind).toBe(SpanKind.SERVER);
    const traceId = http.spanContext().traceId;
    expect(request.spanContext().traceId).toBe(traceId);
    expect(handler.spanContext().traceId).toBe(traceId);
    expect(request.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    expect(handler.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
  });

  it("continues the caller's trace when the request carries a traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect((await session.get('/numbers', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` })).status).toBe(200);
    const spans = await settledSpans(3);
    expect(spanNamed(spans, 'GET /v1/numbers').spanContext().traceId).toBe(traceId);
    expect(spanNamed(spans, 'numbers.v1.list process').spanContext().traceId).toBe(traceId);
  });
});

/** The chain of span names from a span up to its trace's root, leaf first. */
function ancestry(spans: ReadableSpan[], leaf: ReadableSpan): string[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const names: string[] = [];
  for (let span: ReadableSpan | undefined = leaf; span; span = byId.get(span.parentSpanContext?.spanId ?? ''))
    names.push(span.name);
  return names;
}

describe('one trace per call, from the provider report to the webhook', () => {
  let system: RunningSystem;
  let certificate: TestCertificate;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    server = createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) => res.writeHead(204).end());
    port = await listenLocally(server);
    system = await startSystem({
      env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost', WEBHOOK_TEST_CA_FILE: certificate.certFile },
    });
  });
  afterAll(async () => {
    await system?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    certificate?.remove();
    await provider.shutdown();
  });

  it('links the operator request, calls-media, the outbox, JetStream, the consumers and the webhook POST', async () => {
    const admin = new AdminClient(system);
    const session = await ApiSession.create(system);
    const number = await session.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: `https://localhost:${port}/hooks`,
    });
    expect(number.status).toBe(201);
    // calls-media learns of the number from its events: until then a report waits, and is recorded by whichever of
    // the report and the number's event comes second, in that one's trace. A first call, listed, shows it knows.
    const first = await admin.request('POST', '/admin/provider/calls', {
      to: number.body.phone_number,
      caller: '+14155550198',
      duration_sec: 5,
      outcome: 'order',
    });
    expect(first.status).toBe(202);
    for (let i = 0; i < 100; i++) {
      const listed = await session.get('/calls');
      if (listed.body.data?.some((c: { id: string }) => c.id === first.body.call_sid)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Its own webhook and billing spans finish before the one under test starts.
    for (let i = 0; i < 100 && !exporter.getFinishedSpans().some((s) => s.name === 'webhook POST'); i++)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    exporter.reset();

    const call = await admin.request('POST', '/admin/provider/calls', {
      to: number.body.phone_number,
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order',
    });
    expect(call.status).toBe(202);
    let spans: ReadableSpan[] = [];
    const complete = () =>
      spans.some((s) => s.name === 'webhook POST') &&
      spans.filter((s) => s.name === 'call.completed process').length >= 2;
    for (let i = 0; i < 150 && !complete(); i++) {
      await new Promise((r) => setTimeout(r, 100));
      spans = exporter.getFinishedSpans();
    }
    const webhook = spanNamed(spans, 'webhook POST');
    const root = spanNamed(spans, 'POST /admin/provider/calls');
    expect(webhook.spanContext().traceId).toBe(root.spanContext().traceId);
    const chain = ancestry(spans, webhook);
    expect(chain[0]).toBe('webhook POST');
    expect(chain).toContain('call.completed process');
    expect(chain).toContain('call.completed publish');
    expect(chain[chain.length - 1]).toBe('POST /admin/provider/calls');

    // numbers-billing's talk-time consumer is a second branch of the same trace.
    const consumers = spans.filter(
      (s) => s.name === 'call.completed process' && s.spanContext().traceId === root.spanContext().traceId,
    );
    expect(consumers.length).toBeGreaterThanOrEqual(2);
  });
});
