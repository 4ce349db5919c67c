import { context, trace } from '@opentelemetry/api';
import { isProbeRequest, startTracing, stopTracing } from './tracing';

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

describe('isProbeRequest', () => {
  it('knows the probes and the scrape by their path, whatever their query', () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/readyz?verbose=1', '/metrics?'])
      expect(isProbeRequest(url)).toBe(true);
    for (const url of [undefined, '', '/', '/healthz/x', '/v1/numbers?path=/healthz', '/HEALTHZ'])
      expect(isProbeRequest(url)).toBe(false);
  });
});
