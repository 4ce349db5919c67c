import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTracing, stopTracing } from './tracing';

describe('tracing with an exporter', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => startTracing({ service: 'tracing-spec', exporter }));
  afterAll(() => stopTracing());

  it('records and exports every span', async () => {
    const span = trace.getTracer('spec').startSpan('work');
    expect(span.isRecording()).toBe(true);
    span.end();
    // The export waits for the resource's detected attributes (host, process), which are asynchronous.
    for (let i = 0; i < 100 && exporter.getFinishedSpans().length === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['work']);
    // The service names its spans, and the host and process they came from are on them.
    const { attributes } = exporter.getFinishedSpans()[0].resource;
    expect(attributes['service.name']).toBe('tracing-spec');
    expect(attributes['process.pid']).toBe(process.pid);
    expect(attributes['host.name']).toEqual(expect.any(String));
  });
});
