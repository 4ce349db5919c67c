// A service's start as far as tracing goes, in a process of its own (run by tracing-otlp.int-spec.ts): tracing
// first, then pg, as each app's main.ts does. Prints what was loaded and patched, makes one span and stops tracing,
// which flushes the span to OTEL_EXPORTER_OTLP_ENDPOINT when it is set.
import { trace } from '@opentelemetry/api';
import { startTracing, stopTracing } from '../src/tracing';

startTracing({ service: 'otlp-export-process' });
const pg = require('pg') as { Client: { prototype: { query: { __wrapped?: boolean } } } };
const loaded = Object.keys(require.cache);
console.log(
  JSON.stringify({
    pgPatched: pg.Client.prototype.query.__wrapped === true,
    otlpExporterLoaded: loaded.some((path) => path.includes('exporter-trace-otlp-http')),
  }),
);
trace.getTracer('fixture').startSpan('exported-work').end();
void stopTracing().then(() => process.exit(0));
