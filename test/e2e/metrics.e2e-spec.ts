import { createServer, type Server } from 'node:https';
import { startMetrics } from '@switchboard/observability';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

// What `src/tracing.ts` does in each deployed process: register the Prometheus reader.
startMetrics('e2e');

describe('metrics', () => {
  let system: RunningSystem;
  let certificate: TestCertificate;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    server = createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) => res.writeHead(500).end());
    port = await listenLocally(server);
    system = await startSystem({
      env: {
        WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost',
        WEBHOOK_TEST_CA_FILE: certificate.certFile,
        WEBHOOK_BACKOFF_BASE_MS: '50',
      },
    });
  });
  afterAll(async () => {
    await system?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    certificate?.remove();
  });

  async function scrape(): Promise<string> {
    const answer = await fetch(`${system.adminUrl}/metrics`);
    expect(answer.status).toBe(200);
    return answer.text();
  }

  it('exports request rate and latency by route and status, NATS request latency, outbox lag, consumer pending and webhook attempts', async () => {
    const session = await ApiSession.create(system);
    expect((await session.get('/numbers')).status).toBe(200);
    expect((await session.get('/calls/CA00000000000000000000000000000000/transcript')).status).toBe(404);
    const number = await session.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: `https://localhost:${port}/hooks`,
    });
    expect(number.status).toBe(201);
    await new AdminClient(system).request('POST', '/admin/provider/calls', {
      to: number.body.phone_number,
      caller: '+14155550199',
      duration_sec: 5,
      outcome: 'order',
    });

    let text = '';
    for (let i = 0; i < 100 && !/webhook_attempts_total\{[^}]*result="server_error"[^}]*\} [1-9]/.test(text); i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = await scrape();
    }
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{[^}]*route="\/v1\/numbers"[^}]*status_code="200"[^}]*\} [1-9]/,
    );
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{[^}]*route="\/v1\/calls\/:call_id\/transcript"[^}]*status_code="404"/,
    );
    expect(text).toMatch(/nats_request_duration_seconds_count\{[^}]*subject="numbers\.v1\.list"[^}]*outcome="ok"/);
    expect(text).toMatch(/outbox_publish_lag_seconds_count\{[^}]*type="call\.completed"/);
    expect(text).toMatch(/jetstream_consumer_pending_messages\{[^}]*durable="webhook-dispatcher"/);
    expect(text).toMatch(/webhook_attempts_total\{[^}]*result="server_error"[^}]*\} [1-9]/);
    expect(text).not.toMatch(/CA00000000000000000000000000000000/);
    // The alert rules' other signals (deploy/prometheus/alerts.yml): the database answering, the webhook backlog
    // (the failing receiver above keeps a delivery pending), the outbox relay emptying its outbox.
    expect(text).toMatch(/^database_up\{[^}]*\} 1$/m);
    expect(text).toMatch(/^webhook_deliveries_pending\{[^}]*\} [1-9]\d*$/m);
    expect(text).toMatch(/^webhook_oldest_pending_delivery_age_seconds\{[^}]*\} \d/m);
    expect(text).toMatch(/^outbox_relay_last_drained_timestamp_seconds\{[^}]*\} \d/m);
  });

  it('buckets durations in seconds, so a request of a few milliseconds falls under a sub-second bound', async () => {
    const session = await ApiSession.create(system);
    for (let i = 0; i < 5; i += 1) expect((await session.get('/numbers')).status).toBe(200);
    const text = await scrape();
    const bucket = (le: string) => {
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_server_request_duration_seconds_bucket{') &&
            l.includes('route="/v1/numbers"') &&
            l.includes('status_code="200"') &&
            l.includes(`le="${le}"`),
        );
      if (!line) throw new Error(`no bucket le="${le}" for GET /v1/numbers in:\n${text}`);
      return Number(line.split(' ').at(-1));
    };
    // Requests of this test are well under a second; the count under 1 s is the count of them all.
    expect(bucket('1')).toBeGreaterThanOrEqual(5);
    expect(bucket('1')).toBe(bucket('+Inf'));
    expect(bucket('0.001')).toBeLessThanOrEqual(bucket('0.1'));
  });
});
