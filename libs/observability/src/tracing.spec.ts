import { context, trace } from '@opentelemetry/api';
import { startTracing, stopTracing } from './tracing';

describe('tracing without an exporter', () => {
  beforeAll(() => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    startTracing({ service: 'tracing-spec' });
  });
  afterAll(() => stopTracing());

  it('gives spans real trace and span ids, passed on to children, without recording them', () => {
    const parent = trace.getTracer('spec').startSpan('parent');
    const child = trace.getTracer('spec').startSpan('child', {}, trace.setSpan(context.active(), parent));
    expect(parent.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(parent.spanContext().spanId).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
    expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(child.spanContext().spanId).not.toBe(parent.spanContext().spanId);
    expect(parent.isRecording()).toBe(false);
    expect(child.isRecording()).toBe(false);
    child.end();
    parent.end();
  });
});
