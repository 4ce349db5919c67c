import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { toStandardWebhooksSecret, verify } from '@switchboard/signing';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { AdminClient, ApiSession, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(90_000);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/**
 * Issue 18's billing events through the whole system: a declined auto-top-up (operator payment faults) becomes a
 * signed `billing.top_up_failed` at the receiver of the number that opted in, and only there.
 */
describe('billing.top_up_failed webhooks', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let certificate: TestCertificate;
  let server: Server;
  let port: number;
  const received: Received[] = [];

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    server = createServer(
      { key: certificate.key, cert: certificate.cert },
      (req: IncomingMessage, res: ServerResponse) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({ path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) });
          res.writeHead(200).end('ok');
        });
      },
    );
    port = await listenLocally(server);
    system = await startSystem({
      env: {
        WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost',
        WEBHOOK_TEST_CA_FILE: certificate.certFile,
        WEBHOOK_BACKOFF_BASE_MS: '100',
      },
    });
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
  });

  afterAll(async () => {
    await admin?.request('PUT', '/admin/payments/faults', { charge_failures: 0 });
    await system?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    certificate?.remove();
  });

  it('delivers a signed billing.top_up_failed to the opted-in number after a declined auto-top-up', async () => {
    const session = await ApiSession.create(system, { balance_cents: 1_200 });
    const subscribed = await session.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: `https://localhost:${port}/hooks/a`,
    }); // 7.00 left
    expect(subscribed.status).toBe(201);
    const patched = await session.request('PATCH', `/numbers/${subscribed.body.id}`, {
      webhook_events: ['call.completed', 'billing.top_up_failed'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.webhook_events).toEqual(['call.completed', 'billing.top_up_failed']);
    expect(
      (await session.request('PATCH', `/numbers/${subscribed.body.id}`, { webhook_events: ['billing.nope'] })).status,
    ).toBe(400);

    expect(
      (
        await admin.request('PATCH', `/admin/accounts/${session.accountId}`, {
          auto_top_up: { threshold_cents: 800, amount_cents: 2_000 },
        })
      ).status,
    ).toBe(200);
    expect((await admin.request('PUT', '/admin/payments/faults', { charge_failures: 1 })).status).toBe(200);
    // This number's first month leaves 2.00, below the 8.00 threshold: the auto-top-up is declined.
    const other = await session.post('/numbers', {
      business_phone: '+14155550124',
      webhook_url: `https://localhost:${port}/hooks/b`,
    });
    expect(other.status).toBe(201);

    const delivery = await waitFor(() => received.find((r) => r.path === '/hooks/a'));
    const body = JSON.parse(delivery.rawBody.toString()) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'billing.top_up_failed',
      number_id: subscribed.body.id,
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      top_up: {
        attempt_id: expect.any(String),
        amount_cents: 2_000,
        reason: 'declined',
        attempted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    const secret = subscribed.body.webhook_secret as string;
    expect(
      verify({
        secret,
        rawBody: delivery.rawBody,
        timestampHeader: delivery.headers['x-switchboard-timestamp'],
        signatureHeader: delivery.headers['x-switchboard-signature'],
      }),
    ).toMatchObject({ valid: true });
    expect(() =>
      new Webhook(toStandardWebhooksSecret(secret)).verify(
        delivery.rawBody.toString(),
        delivery.headers as Record<string, string>,
      ),
    ).not.toThrow();
    expect(delivery.headers['x-switchboard-event-id']).toBe(delivery.headers['webhook-id']);

    // In the number's delivery log; the number that did not opt in got nothing.
    const log = await waitFor(async () => {
      const page = await session.get(`/numbers/${subscribed.body.id}/webhook-events`);
      const entry = (page.body.data as { id: string; type: string; status: string }[]).find(
        (e) => e.type === 'billing.top_up_failed',
      );
      return entry?.status === 'delivered' ? entry : undefined;
    });
    expect(log.id).toBe(delivery.headers['x-switchboard-event-id']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received.filter((r) => r.path === '/hooks/b')).toEqual([]);
  });
});
