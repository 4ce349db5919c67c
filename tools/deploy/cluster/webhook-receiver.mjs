// The integrators' side of the cluster run: an HTTPS webhook receiver on 127.0.0.1 that checks every delivery as
// docs/webhooks.md tells a receiver to (libs/signing's `verify` with the number's secret, over the raw body), answers
// 204 to a valid one and 400 to anything else, and keeps what arrived: per call, every event id it came with and
// the trace it carried.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { ROOT } from './cluster.mjs';

/** @switchboard/signing from its TypeScript sources (no build needed), as tools/docs does with the repository's TS. */
function loadSigning() {
  const require = createRequire(import.meta.url);
  require(join(ROOT, 'libs', 'testing', 'src', 'ts-register.cjs'));
  return require(join(ROOT, 'libs', 'signing', 'src', 'index.ts'));
}

export async function startWebhookReceiver({ tlsDir }) {
  const signing = loadSigning();
  const secrets = new Map(); // number_id -> webhook_secret
  /** call_sid -> { events: Set<event id>, valid: n, invalid: n, traceparents: Set } */
  const calls = new Map();
  const stats = { requests: 0, valid: 0, invalid: 0, unknown_number: 0, other_types: 0 };

  const server = createServer(
    { key: readFileSync(join(tlsDir, 'server.key')), cert: readFileSync(join(tlsDir, 'server.pem')) },
    (request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        stats.requests += 1;
        const rawBody = Buffer.concat(chunks);
        let body;
        try {
          body = JSON.parse(rawBody.toString('utf8'));
        } catch {
          stats.invalid += 1;
          return response.writeHead(400).end();
        }
        const secret = secrets.get(body.number_id);
        if (!secret) {
          stats.unknown_number += 1;
          return response.writeHead(400).end();
        }
        const verdict = signing.verify({
          secret,
          rawBody,
          timestampHeader: request.headers[signing.TIMESTAMP_HEADER.toLowerCase()],
          signatureHeader: request.headers[signing.SIGNATURE_HEADER.toLowerCase()],
        });
        if (!verdict.valid) {
          stats.invalid += 1;
          return response.writeHead(400).end();
        }
        stats.valid += 1;
        if (body.type !== signing.CALL_COMPLETED_WEBHOOK_TYPE) {
          stats.other_types += 1;
          return response.writeHead(204).end();
        }
        const sid = body.call?.call_sid;
        let entry = calls.get(sid);
        if (!entry) calls.set(sid, (entry = { events: new Set(), deliveries: 0, traceparents: new Set() }));
        entry.deliveries += 1;
        entry.events.add(String(request.headers[signing.EVENT_ID_HEADER.toLowerCase()] ?? ''));
        if (request.headers.traceparent) entry.traceparents.add(String(request.headers.traceparent));
        response.writeHead(204).end();
      });
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    port,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    secrets,
    calls,
    stats,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
