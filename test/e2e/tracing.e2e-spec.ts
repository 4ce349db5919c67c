import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ApiSession, startSystem, type RunningSystem } from './support';

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
  for (let i = 0; i < 50 && exporter.getFinishedSpans().length < count; i++) await new Promise((r) => setTimeout(r, 20));
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
    await provider.shutdown();
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

  it('continues the caller\'s trace when the request carries a traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect((await session.get('/numbers', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` })).status).toBe(200);
    const spans = await settledSpans(3);
    expect(spanNamed(spans, 'GET /v1/numbers').spanContext().traceId).toBe(traceId);
    expect(spanNamed(spans, 'numbers.v1.list process').spanContext().traceId).toBe(traceId);
  });
});
