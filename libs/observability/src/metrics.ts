import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  metrics,
  type Counter,
  type Gauge,
  type Histogram,
  type Meter,
  type ObservableGauge,
  type ObservableResult,
} from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

let exporter: PrometheusExporter | undefined;
/** Bumped when `startMetrics` registers the provider, so that an instrument made before it is made again, once. */
let providerGeneration = 0;

/**
 * Metrics in Prometheus text format. The provider is registered once per process (each app's `tracing.ts`
 * calls `startMetrics`); services serve it at `/metrics` on HEALTH_PORT, the gateway on its admin port.
 */
export function startMetrics(service: string): PrometheusExporter {
  if (exporter) return exporter;
  exporter = new PrometheusExporter({ preventServerStart: true, prefix: '' });
  const provider = new MeterProvider({ readers: [exporter] });
  metrics.setGlobalMeterProvider(provider);
  serviceName = service;
  providerGeneration += 1;
  return exporter;
}

let serviceName = 'switchboard';

/** Answers a scrape; a process without metrics started answers an empty page. */
export function serveMetrics(request: IncomingMessage, response: ServerResponse): void {
  if (!exporter) {
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    response.end('');
    return;
  }
  exporter.getMetricsRequestHandler(request, response);
}

function meter(): Meter {
  return metrics.getMeter(`switchboard.${serviceName}`);
}

/**
 * An instrument made on first use: the metrics API has no proxy meter, so an instrument made before
 * `startMetrics` would stay a no-op forever. It is not looked up again on every use: the global provider's meter
 * lookup, twice per request in the gateway, was about half a percent of its CPU per list request.
 */
function lazy<T>(make: (m: Meter) => T): () => T {
  let instrument: T | undefined;
  let madeIn = -1;
  return () => {
    if (instrument === undefined || madeIn !== providerGeneration) {
      instrument = make(meter());
      madeIn = providerGeneration;
    }
    return instrument;
  };
}

/**
 * Buckets for durations in seconds, 1 ms to 5 min (the outbox-lag alert in docs/operations.md fires past 60 s).
 * Without them a histogram gets the SDK's default boundaries (0, 5, 10, 25 ... 10000), meant for milliseconds:
 * every request would land in the 5-second bucket and no percentile or latency alert could be computed.
 */
export const SECONDS_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300,
];

/** The instruments Switchboard records, one place for their names and units. */
export const Metrics = {
  httpRequestDuration: lazy<Histogram>((m) =>
    m.createHistogram('http_server_request_duration_seconds', {
      description: 'HTTP requests by route and status',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    }),
  ),
  rpcClientDuration: lazy<Histogram>((m) =>
    m.createHistogram('nats_request_duration_seconds', {
      description: 'NATS requests from the gateway to a service, by subject and outcome',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    }),
  ),
  outboxLag: lazy<Histogram>((m) =>
    m.createHistogram('outbox_publish_lag_seconds', {
      description: 'Time from an event being committed to its publication on JetStream',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    }),
  ),
  consumerPending: lazy<ObservableGauge>((m) =>
    m.createObservableGauge('jetstream_consumer_pending_messages', {
      description: 'Messages not yet delivered (pending) or not yet acknowledged (ack_pending), by durable consumer',
    }),
  ),
  webhookAttempts: lazy<Counter>((m) =>
    m.createCounter('webhook_attempts_total', { description: 'Webhook delivery attempts by result' }),
  ),
  deadLetters: lazy<Counter>((m) =>
    m.createCounter('dead_letters_total', {
      description: 'Messages a durable consumer gave up on and wrote to the dead-letter stream, by durable consumer',
    }),
  ),
  callDataDeleted: lazy<Counter>((m) =>
    m.createCounter('call_data_deleted_total', {
      description:
        "Calls' recordings and transcripts deleted, by what (recording | transcript) and why (retention | request)",
    }),
  ),
  // The alert rules' other signals (deploy/prometheus/alerts.yml): a database that does not answer, the webhook
  // backlog, an outbox relay that no longer empties its outbox.
  databaseUp: lazy<ObservableGauge>((m) =>
    m.createObservableGauge('database_up', {
      description: "1 when the service's database answered SELECT 1 at this scrape (within 2 s), else 0",
    }),
  ),
  webhookDeliveriesPending: lazy<ObservableGauge>((m) =>
    m.createObservableGauge('webhook_deliveries_pending', {
      description: 'Webhook deliveries waiting for their first or next attempt (all replicas share them)',
    }),
  ),
  webhookOldestPendingAge: lazy<ObservableGauge>((m) =>
    m.createObservableGauge('webhook_oldest_pending_delivery_age_seconds', {
      description: 'Age of the oldest pending webhook delivery; 0 when none is pending',
      unit: 's',
    }),
  ),
  outboxRelayLastDrained: lazy<Gauge>((m) =>
    m.createGauge('outbox_relay_last_drained_timestamp_seconds', {
      description: "When this process's outbox relay last left its outbox empty (every committed event published)",
      unit: 's',
    }),
  ),
};

/** How long a scrape waits for the database's answer before it reports it down: a hung database must not hang it. */
export const DATABASE_PING_TIMEOUT_MS = 2000;

/**
 * Reports `database_up` at each scrape from `ping` (a `SELECT 1`): 0 when it fails or takes longer than
 * `timeoutMs`. Returns what stops it (call it when the database closes).
 */
export function observeDatabaseUp(ping: () => Promise<boolean>, timeoutMs = DATABASE_PING_TIMEOUT_MS): () => void {
  const gauge = Metrics.databaseUp();
  const observe = async (result: ObservableResult) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const up = await Promise.race([ping().catch(() => false), late]);
    clearTimeout(timer);
    result.observe(up ? 1 : 0);
  };
  gauge.addCallback(observe);
  return () => gauge.removeCallback(observe);
}
