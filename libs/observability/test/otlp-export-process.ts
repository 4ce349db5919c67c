// A service's start as far as tracing goes, in a process of its own (run by tracing-otlp.int-spec.ts): tracing
// first, then pg, as each app's main.ts does. Prints what was loaded and patched, makes one span and stops tracing,
// which flushes the span to OTEL_EXPORTER_OTLP_ENDPOINT when it is set. With FIXTURE_HTTP_REQUEST it first serves one
// HTTP request to itself (each side instrumented unless FIXTURE_INCOMING_HTTP or FIXTURE_OUTGOING_HTTP is `false`).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { startTracing, stopTracing } from '../src/tracing';

startTracing({
  service: 'otlp-export-process',
  incomingHttp: process.env.FIXTURE_INCOMING_HTTP !== 'false',
  outgoingHttp: process.env.FIXTURE_OUTGOING_HTTP !== 'false',
});
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after startTracing, as main.ts loads it (an import would hoist)
const pg = require('pg') as { Client: { prototype: { query: { __wrapped?: boolean } } } };
const loaded = Object.keys(require.cache);
console.log(
  JSON.stringify({
    pgPatched: pg.Client.prototype.query.__wrapped === true,
    otlpExporterLoaded: loaded.some((path) => path.includes('exporter-trace-otlp-http')),
  }),
);

async function requestItself(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- after startTracing (an import would hoist above it)
  const http = require('node:http') as typeof import('node:http');
  const server = http.createServer((_request, response) => response.end('ok'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  await new Promise<void>((resolve, reject) =>
    http
      .get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/work`, (response) =>
        response.resume().on('end', resolve),
      )
      .on('error', reject),
  );
  server.close();
}

void (process.env.FIXTURE_HTTP_REQUEST ? requestItself() : Promise.resolve())
  .then(() => trace.getTracer('fixture').startSpan('exported-work').end())
  .then(() => stopTracing())
  .then(() => process.exit(0));
