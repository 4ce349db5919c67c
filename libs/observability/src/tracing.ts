import type { IncomingMessage } from 'node:http';
import { context, createNoopMeter, propagation, trace, type MeterProvider } from '@opentelemetry/api';
import type * as OtlpTraceExporterModule from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations, type Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import type * as PgInstrumentationModule from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AlwaysOffSampler, BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { startMetrics } from './metrics';

let provider: NodeTracerProvider | undefined;
let started = false;
let unregister: (() => void) | undefined;

const DISCARD_SPANS: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => undefined,
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/**
 * Instrumentations record their own metrics (request durations by many attributes) on every request. Ours are the
 * ones on /metrics (metrics.ts); theirs would cost CPU on every request and clash with our names, so they get a
 * meter that records nothing.
 */
const NO_METRICS: MeterProvider = { getMeter: () => createNoopMeter() };

// The OTLP exporter and the pg instrumentation are loaded only when spans are exported (docs/adr/0117): the exporter
// brings OpenTelemetry's transformers for every signal (metrics and logs too), and with the instrumentation about 220
// modules, 5 MiB resident and 60 ms of start-up in every service that exports nothing.
function otlpTraceExporter(): SpanExporter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily and synchronously (ADR 0117)
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpTraceExporterModule;
  return new OTLPTraceExporter();
}

function pgInstrumentation(): Instrumentation {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily and synchronously (ADR 0117)
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof PgInstrumentationModule;
  // Background queries (outbox polls, schedulers) would each start a trace of their own.
  return new PgInstrumentation({ requireParentSpan: true });
}

/** Probes and scrapes arrive every few seconds from every orchestrator and would each start a trace of nothing. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** A probe's or a scrape's request target (its query aside): served without a span, wherever spans are made. */
export function isProbeRequest(url: string | undefined): boolean {
  if (!url) return false;
  const query = url.indexOf('?');
  return PROBE_PATHS.has(query === -1 ? url : url.slice(0, query));
}

export interface TracingOptions {
  service: string;
  /** Tests pass an in-memory exporter; production exports over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  exporter?: SpanExporter;
  /**
   * Whether the HTTP instrumentation makes a span for each request the process serves (default true). The gateway
   * makes its own request spans (apps/gateway/src/http/request-span.ts, docs/adr/0117).
   */
  incomingHttp?: boolean;
  /**
   * Whether it makes a span for each request the process sends, and passes the trace on in it (default true). The
   * webhook dispatcher makes its own span per attempt and puts its `traceparent` on the webhook (docs/adr/0117).
   */
  outgoingHttp?: boolean;
}

/**
 * Starts OpenTelemetry for a service. Must run before the modules it instruments (http, pg, fetch) are loaded, so
 * each app's `main.ts` imports its `tracing.ts` first. Without an exporter or OTLP endpoint, trace and span ids still
 * exist (in logs and NATS headers) but spans are neither recorded nor exported. Only traces leave the process over
 * OTLP: metrics are scraped from /metrics and logs are JSON on stdout, so no metric or log pipeline is started.
 */
export function startTracing(options: TracingOptions): void {
  if (started) return;
  started = true;
  startMetrics(options.service);
  // OpenTelemetry's switch for the whole SDK: no provider (trace ids stay zeros) and no instrumentations.
  if (process.env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return;
  const processors: SpanProcessor[] = [];
  if (options.exporter) processors.push(new SimpleSpanProcessor(options.exporter));
  else if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) processors.push(new BatchSpanProcessor(otlpTraceExporter()));
  // Without a processor a span that is not sampled still gets real trace and span ids, which logs and `traceparent`
  // carry; recording spans nobody exports is wasted work.
  const exporting = processors.length > 0;
  if (!exporting) processors.push(DISCARD_SPANS);
  // The tracer provider alone, not `@opentelemetry/sdk-node`: the Node SDK also loads the OTLP exporters of every
  // protocol and signal (gRPC among them), which cost each service about 10 MiB resident and 150 ms of start-up for
  // pipelines that stay off here (docs/adr/0117).
  provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(detectResources({ detectors: [envDetector, hostDetector, osDetector, processDetector] }))
      .merge(resourceFromAttributes({ 'service.name': options.service })),
    spanProcessors: processors,
    // Exporting: OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG decide (default: every trace, parent-based).
    ...(exporting ? {} : { sampler: new AlwaysOffSampler() }),
  });
  // AsyncLocalStorage for the active context; W3C `traceparent` and `baggage` on the wire.
  provider.register();
  // Only what our hops need: incoming and outgoing HTTP (it also continues and passes on `traceparent`, and makes the
  // request's context the one its log lines carry), fetch (object storage) and PostgreSQL. The pg instrumentation
  // only makes spans, and costs the gateway about a fifth of its CPU per request even when they are not recorded
  // (docs/performance.md, diagnostics): it is loaded only when spans are exported. An operator can turn any of them
  // off with OTEL_NODE_DISABLED_INSTRUMENTATIONS (comma-separated: http, undici, pg), as with OpenTelemetry's
  // auto-instrumentations.
  const disabled = new Set(
    (process.env.OTEL_NODE_DISABLED_INSTRUMENTATIONS ?? '').split(',').map((name) => name.trim()),
  );
  if (!exporting) disabled.add('pg');
  const incomingHttp = options.incomingHttp !== false;
  const outgoingHttp = options.outgoingHttp !== false;
  if (!incomingHttp && !outgoingHttp) disabled.add('http');
  const available: Record<string, () => Instrumentation> = {
    http: () =>
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: !incomingHttp,
        disableOutgoingRequestInstrumentation: !outgoingHttp,
        ignoreIncomingRequestHook: (request: IncomingMessage) => isProbeRequest(request.url),
      }),
    undici: () => new UndiciInstrumentation(),
    pg: pgInstrumentation,
  };
  const instrumentations = Object.entries(available)
    .filter(([name]) => !disabled.has(name))
    .map(([, make]) => make());
  unregister = registerInstrumentations({ instrumentations, meterProvider: NO_METRICS });
}

export async function stopTracing(): Promise<void> {
  const current = provider;
  provider = undefined;
  started = false;
  unregister?.();
  unregister = undefined;
  if (!current) return;
  await current.shutdown();
  // The API keeps the first provider, context manager and propagator registered: a later start registers its own.
  trace.disable();
  context.disable();
  propagation.disable();
}
