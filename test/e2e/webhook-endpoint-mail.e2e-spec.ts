import { createServer, type Server } from 'node:https';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { AdminClient, ApiSession, ConsoleClient, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(90_000);

const PASSWORD = 'quiet otter builds paper maps 42';

/**
 * Issue 18's last gap: a receiver that answers 410 Gone gets its endpoint disabled, and every owner of the account
 * is mailed once (the gateway consumes `webhook.endpoint_disabled`, docs/adr/0075).
 */
describe('the owners are mailed when a webhook endpoint is disabled', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let certificate: TestCertificate;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    server = createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) => res.writeHead(410).end());
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
    await system?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    certificate?.remove();
  });

  async function owner(accountId: string, email: string): Promise<void> {
    const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, { email, role: 'owner' });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
    const accepted = await new ConsoleClient(system).post('/invites/accept', { token, password: PASSWORD });
    expect(accepted.status).toBe(200);
  }

  const alerts = async (to: string) =>
    (
      (await admin.request('GET', `/admin/email?to=${encodeURIComponent(to)}`)).body.data as {
        subject: string;
        body: string;
      }[]
    ).filter((mail) => mail.subject.startsWith('Webhook endpoint disabled'));

  it('mails the owner once, naming the number, the URL, why and how to enable it', async () => {
    const session = await ApiSession.create(system);
    await owner(session.accountId, 'gone.owner@example.com');
    const url = `https://localhost:${port}/hooks/gone`;
    const created = await session.post('/numbers', { business_phone: '+14155550123', webhook_url: url });
    expect(created.status).toBe(201);

    const call = await admin.request('POST', '/admin/provider/calls', {
      to: created.body.phone_number,
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order_placed',
      started_at: '2026-11-20T10:00:00.000Z',
      recording: false,
    });
    expect(call.status).toBe(202);

    const [mail] = await waitFor(async () => {
      const found = await alerts('gone.owner@example.com');
      return found.length > 0 ? found : undefined;
    });
    expect(mail.subject).toContain(created.body.phone_number);
    expect(mail.body).toContain(created.body.id);
    expect(mail.body).toContain(url);
    expect(mail.body).toContain('410 Gone');
    expect(mail.body).toContain(`POST /v1/numbers/${created.body.id}/webhook-endpoint/enable`);
    expect(mail.body).not.toContain(created.body.webhook_secret);

    const endpoint = await session.get(`/numbers/${created.body.id}/webhook-endpoint`);
    expect(endpoint.body).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    // No second mail arrives for the same event.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await alerts('gone.owner@example.com')).toHaveLength(1);
  });
});
