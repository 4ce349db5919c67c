import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { databaseUrlVariable } from '@switchboard/persistence';
import { createTestDatabase, testNatsEnv, type TestDatabase } from '@switchboard/testing';
import { switchboardWebhookHandler, type CallCompletedEvent } from '../../libs/signing/examples/receiver';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { freePort } from '../../tools/dev/free-port.mjs';
import { SERVICES } from '../../tools/dev/service-bundles.mjs';
import {
  AdminClient,
  ApiSession,
  deleteStreams,
  ServiceProcess,
  TEST_ADMIN_TOKEN,
  waitFor,
  type SystemAddresses,
} from './support';

// tsc -b over every project (a fresh clone's first build: 15-40 s), the five bundles (5 s), then five processes.
jest.setTimeout(240_000);

const root = join(__dirname, '..', '..');

/** One OTLP/HTTP span as the JSON exporter sends it, with the name of the service that made it. */
interface ExportedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** OTLP's span kind: 2 a server span, 3 a client span. */
  kind: number;
  attributes: Record<string, unknown>;
}

/**
 * ADR 0099: a release runs each service from one bundle (apps/<app>/dist/main.bundle.js), not from the compiled
 * modules the other end-to-end tests load. This test builds the bundles as `npm run build` does and starts the five
 * of them as processes, each as its own NATS user, exporting its spans over OTLP to a collector here, then drives the
 * whole path through them: the API's validation, provisioning, a call to a signed webhook, the lists, lost-and-found,
 * the OpenAPI document and the traces. What bundling could break shows up here: a package that reads its own files,
 * WebAssembly (Prisma's query compiler, the migrations' schema engine), class names and decorator metadata (the
 * OpenAPI document), packages OpenTelemetry patches when they are required (pg).
 */
describe('the services run from their bundles', () => {
  let certificate: TestCertificate;
  let receiver: Server;
  let receiverPort: number;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let collector: HttpServer;
  const spans: ExportedSpan[] = [];
  const databases: TestDatabase[] = [];
  const processes: ServiceProcess[] = [];
  let dataDir: string;
  let prefix: string;
  let system: SystemAddresses;
  let admin: AdminClient;

  beforeAll(async () => {
    // As `npm run build` does, each in a process of its own (rolldown's native binding does not load in Jest's), under
    // the checkout's build lock: npm-start and sdk-packages build the same folders, maybe at the same time.
    for (const args of [
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'],
      [join(root, 'tools', 'dev', 'service-bundles.mjs'), '--if-stale'],
    ]) {
      const locked = [join(root, 'tools', 'dev', 'build-lock.mjs'), '--', process.execPath, ...args];
      const step = spawnSync(process.execPath, locked, { cwd: root, encoding: 'utf8' });
      if (step.status !== 0) throw new Error(`${args.join(' ')} failed:\n${step.stdout}${step.stderr}`);
    }

    certificate = selfSignedCertificate();
    receiver = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) =>
      handler ? handler(req, res) : res.writeHead(503).end(),
    );
    receiverPort = await listenLocally(receiver);
    collector = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        collect(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));

    prefix = `e2eb${randomBytes(5).toString('hex')}`;
    dataDir = mkdtempSync(join(tmpdir(), 'sb-bundles-'));
    for (const app of SERVICES) databases.push(await createTestDatabase(app));
    const [port, adminPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      NATS_SUBJECT_PREFIX: prefix,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      DATA_DIR: dataDir,
      SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost',
      WEBHOOK_TEST_CA_FILE: certificate.certFile,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...Object.fromEntries(SERVICES.map((app, i) => [databaseUrlVariable(app), databases[i].url])),
    };
    // Each kept as soon as it runs, so that afterAll stops the ones that started when another did not; all are waited
    // for before a failure is thrown, or one still starting would be kept after afterAll and outlive the run.
    const starts = await Promise.allSettled(
      SERVICES.map(async (app) => {
        const extra =
          app === 'gateway'
            ? { PORT: String(port), ADMIN_PORT: String(adminPort), HOST: '127.0.0.1' }
            : { HEALTH_PORT: String(await freePort()) };
        const service = await ServiceProcess.start(app, { ...env, ...testNatsEnv(app), ...extra }, { from: 'bundle' });
        processes.push(service);
      }),
    );
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed) throw failed.reason;
    system = {
      publicUrl: `http://127.0.0.1:${port}`,
      adminUrl: `http://127.0.0.1:${adminPort}`,
      adminToken: TEST_ADMIN_TOKEN,
    };
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
  });

  afterAll(async () => {
    await Promise.allSettled(processes.map((service) => service.stop()));
    if (prefix) await deleteStreams(prefix);
    await Promise.allSettled(databases.map((database) => database.drop()));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    collector?.closeAllConnections();
    await new Promise((resolve) => collector?.close(resolve));
    certificate?.remove();
  });

  function collect(payload: {
    resourceSpans?: {
      resource?: { attributes?: { key: string; value: Record<string, unknown> }[] };
      scopeSpans?: {
        spans?: (Omit<ExportedSpan, 'service' | 'attributes'> & {
          attributes?: { key: string; value: Record<string, unknown> }[];
        })[];
      }[];
    }[];
  }): void {
    const flat = (attributes: { key: string; value: Record<string, unknown> }[] = []) =>
      Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));
    for (const resource of payload.resourceSpans ?? []) {
      const service = String(flat(resource.resource?.attributes)['service.name']);
      for (const scope of resource.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          spans.push({
            service,
            name: span.name,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            kind: span.kind,
            attributes: flat(span.attributes),
          });
    }
  }

  it('answers ready, and a body that breaks the rules with 400 and the error envelope', async () => {
    expect((await fetch(`${system.publicUrl}/readyz`)).status).toBe(200);
    const session = await ApiSession.create(system);
    const refused = await session.post('/numbers', { business_phone: 'not a phone', webhook_url: 42 });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
  });

  it('provisions a number, reports a call to its signed webhook, lists both, and traces the request through pg', async () => {
    const session = await ApiSession.create(system);
    const created = await session.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: `https://localhost:${receiverPort}/hooks/switchboard`,
    });
    expect(created.status).toBe(201);
    const received: CallCompletedEvent[] = [];
    const traceparents: string[] = [];
    const verify = switchboardWebhookHandler(created.body.webhook_secret, async (event) => {
      received.push(event);
    });
    handler = (req, res) => {
      traceparents.push(String(req.headers.traceparent));
      verify(req, res);
    };

    const call = await admin.request('POST', '/admin/provider/calls', {
      to: created.body.phone_number,
      caller: '+14155550199',
      duration_sec: 61,
      outcome: 'order_placed',
      started_at: '2026-11-20T10:00:00.000Z',
    });
    expect(call.status).toBe(202);
    const event = await waitFor(() => received.find((e) => e.call.call_sid === call.body.call_sid));
    expect(event).toMatchObject({ type: 'call.completed', number_id: created.body.id });
    // The webhook continues the call's trace from its attempt's span, the dispatcher's only span for the POST
    // (docs/adr/0117).
    const [, webhookTraceId, attemptSpanId] = traceparents[0].split('-');
    const attempt = await waitFor(() =>
      spans.find((span) => span.service === 'webhook-dispatcher' && span.spanId === attemptSpanId),
    );
    expect(attempt).toMatchObject({ name: 'webhook POST', kind: 3, traceId: webhookTraceId });
    expect(spans.filter((span) => span.traceId === webhookTraceId && span.name === 'POST')).toEqual([]);

    const calls = await waitFor(async () => {
      const answer = await session.get('/calls');
      return answer.body.data?.length === 1 ? answer : undefined;
    });
    expect(calls.body.data[0]).toMatchObject({ id: call.body.call_sid, number_id: created.body.id });
    const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
    const numbers = await session.get('/numbers', { traceparent });
    expect(numbers.status).toBe(200);
    expect(numbers.body.data.map((number: { id: string }) => number.id)).toEqual([created.body.id]);

    // One trace from the gateway into numbers-billing, with the PostgreSQL queries of both (pg is patched when
    // required: bundled, it would not be). The gateway's request and server spans end last, after the answer, and
    // may come in a later export than the queries: wait for them too.
    const traceId = traceparent.split('-')[1];
    const trace = await waitFor(() => {
      const found = spans.filter((span) => span.traceId === traceId);
      const querying = new Set(found.filter((span) => span.name.startsWith('pg.query:')).map((span) => span.service));
      const gatewaySpans = new Set(found.filter((span) => span.service === 'gateway').map((span) => span.name));
      const complete = gatewaySpans.has('GET /v1/numbers') && gatewaySpans.has('numbers.v1.list request');
      return complete && querying.has('gateway') && querying.has('numbers-billing') ? found : undefined;
    });
    expect(trace).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ service: 'gateway', name: 'GET /v1/numbers' }),
        expect.objectContaining({ service: 'gateway', name: 'numbers.v1.list request' }),
        expect.objectContaining({ service: 'numbers-billing', name: 'numbers.v1.list process' }),
        expect.objectContaining({
          service: 'numbers-billing',
          attributes: expect.objectContaining({ 'db.system.name': 'postgresql' }),
        }),
      ]),
    );
    // One server span in the gateway for the request, the caller's span its parent (docs/adr/0117).
    const served = trace.filter((span) => span.service === 'gateway' && span.kind === 2);
    expect(served.map(({ name, parentSpanId }) => ({ name, parentSpanId }))).toEqual([
      { name: 'GET /v1/numbers', parentSpanId: traceparent.split('-')[2] },
    ]);
  });

  it('logs a found item, finds it by a word, and matches a claim to it', async () => {
    const session = await ApiSession.create(system);
    const location = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, {
      name: 'Union Station',
    });
    expect(location.status).toBe(201);
    const locationId = location.body.id;
    const item = await session.post('/lostfound/found-items', {
      location_id: locationId,
      category: 'umbrella',
      description: 'Red umbrella with a wooden handle',
      color: 'red',
      found_area: 'Gate B12',
      found_date: '2026-11-18',
    });
    expect(item.status).toBe(201);
    const found = await session.get(`/lostfound/found-items?location_id=${locationId}&q=umbrella`);
    expect(found.status).toBe(200);
    expect(found.body.data.map((entry: { id: string }) => entry.id)).toEqual([item.body.id]);
    const claim = await session.post('/lostfound/claims', {
      location_id: locationId,
      claimant_name: 'Jane Smith',
      claimant_phone: '+14158671234',
      category: 'umbrella',
      description: 'red umbrella, wooden handle',
      color: 'red',
      lost_area: 'Gate B12',
      lost_date: '2026-11-17',
    });
    expect(claim.status).toBe(201);
    expect(claim.body).toMatchObject({
      has_match: true,
      matches: [expect.objectContaining({ found_item_id: item.body.id })],
    });
  });

  it('serves the same OpenAPI document as the sources build (class names and decorator metadata kept)', async () => {
    const answer = await fetch(`${system.publicUrl}/v1/openapi.json`);
    expect(answer.status).toBe(200);
    const committed = JSON.parse(readFileSync(join(root, 'libs', 'sdk', 'openapi.json'), 'utf8'));
    expect(await answer.json()).toEqual(committed);
  });

  it('serves the reference page with the Swagger UI files it loads (found in node_modules from the bundle)', async () => {
    const page = await fetch(`${system.publicUrl}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="\.\/docs\/([^"]+\.(?:js|css))"/g)].map((match) => match[1]);
    expect(assets).toEqual(expect.arrayContaining(['swagger-ui-bundle.js', 'swagger-ui.css']));
    for (const asset of assets) {
      const answer = await fetch(`${system.publicUrl}/docs/${asset}`);
      expect([asset, answer.status]).toEqual([asset, 200]);
      expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });
});
