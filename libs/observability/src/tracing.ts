import { NodeSDK } from '@opentelemetry/sdk-node';
import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { startMetrics } from './metrics';

let sdk: NodeSDK | undefined;

const DISCARD_SPANS: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => undefined,
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

export interface TracingOptions {
  service: string;
  /** Tests pass an in-memory exporter; production exports over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  exporter?: SpanExporter;
}

/**
 * Starts OpenTelemetry for a service. Must run before the modules it instruments (http, pg) are loaded, so each
 * app's `main.ts` imports its `tracing.ts` first. Without an exporter or OTLP endpoint, spans still exist (trace
 * ids in logs and NATS headers) but are not exported.
 */
export function startTracing(options: TracingOptions): void {
  if (sdk) return;
  startMetrics(options.service);
  const processors: SpanProcessor[] = [];
  if (options.exporter) processors.push(new SimpleSpanProcessor(options.exporter));
  else if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  // With no processor the SDK registers no tracer provider at all, and every trace id (in logs, in NATS headers)
  // would be zeros: keep real, unexported spans instead.
  else processors.push(DISCARD_SPANS);
  sdk = new NodeSDK({
    serviceName: options.service,
    spanProcessors: processors,
    instrumentations: [
      getNodeAutoInstrumentations({
        // Only what our hops need: incoming/outgoing HTTP and PostgreSQL. The rest is noise and start-up cost.
        '@opentelemetry/instrumentation-fs': { enabled: false },
        '@opentelemetry/instrumentation-dns': { enabled: false },
        '@opentelemetry/instrumentation-net': { enabled: false },
        // Background queries (outbox polls, schedulers) would each start a trace of their own.
        '@opentelemetry/instrumentation-pg': { requireParentSpan: true },
      }),
    ],
  });
  sdk.start();
}

export async function stopTracing(): Promise<void> {
  const current = sdk;
  sdk = undefined;
  await current?.shutdown();
}
