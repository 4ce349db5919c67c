import {
  AdminClient,
  ApiSession,
  cutOffDatabase,
  publicRequest,
  startSystem,
  type HttpAnswer,
  type RunningSystem,
} from './support';

jest.setTimeout(120_000);

type App = 'gateway' | 'numbers-billing' | 'calls-media' | 'lostfound' | 'webhook-dispatcher';

/**
 * Issue 20: a service whose database is down answers 503 `service_unavailable` with `Retry-After` (not 500
 * `internal_error`), the gateway's /readyz names it, and everything answers again once the database is back.
 * The outage is real: the test database refuses connections and its open ones are terminated.
 */
describe('a database outage, through the public API', () => {
  let system: RunningSystem;
  let session: ApiSession;
  let admin: AdminClient;
  let locationId: number;

  beforeAll(async () => {
    system = await startSystem();
    session = await ApiSession.create(system);
    admin = new AdminClient(system);
    const location = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, {
      name: 'Terminal 1',
    });
    locationId = location.body.id;
  });
  afterAll(() => system?.stop());

  /** A request that needs the app's database, and what /readyz says about it when that database is down. */
  const probes: Record<App, { request: () => Promise<HttpAnswer>; readyCheck: [string, string] }> = {
    gateway: { request: () => session.get('/numbers'), readyCheck: ['database', 'down'] },
    'numbers-billing': { request: () => session.get('/numbers'), readyCheck: ['numbers-billing', 'database down'] },
    'calls-media': { request: () => session.get('/calls'), readyCheck: ['calls-media', 'database down'] },
    lostfound: {
      request: () => session.get(`/lostfound/found-items?location_id=${locationId}`),
      readyCheck: ['lostfound', 'database down'],
    },
    'webhook-dispatcher': {
      request: () => admin.request('GET', '/admin/webhook-deliveries?number_id=num_1'),
      readyCheck: ['webhook-dispatcher', 'database down'],
    },
  };

  it.each(Object.keys(probes) as App[])(
    '%s: 503 service_unavailable with Retry-After while its database is down, /readyz names it, then recovery',
    async (app) => {
      const probe = probes[app];
      expect((await probe.request()).status).toBe(200);
      const outage = await cutOffDatabase(system.env[`${app.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`]!);
      try {
        const answers = [await probe.request(), await probe.request()];
        for (const answer of answers) {
          expect(answer.status).toBe(503);
          expect(answer.body).toEqual({
            error: { code: 'service_unavailable', message: expect.stringContaining('database is unavailable') },
          });
          expect(answer.headers.get('retry-after')).toBe('5');
        }
        const ready = await publicRequest(system, 'GET', '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.headers.get('retry-after')).toBe('5');
        const [check, value] = probe.readyCheck;
        expect(ready.body.checks[check]).toBe(value);
        expect(ready.body.error.message).toContain(`${check} ${value}`);
      } finally {
        await outage.restore();
      }
      expect((await probe.request()).status).toBe(200);
      const ready = await publicRequest(system, 'GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(Object.values(ready.body.checks).every((value) => value === 'ok')).toBe(true);
    },
  );

  it('answers a provider outage 503 provider_unavailable with Retry-After 30, and charges nothing', async () => {
    const faults = await admin.request('PUT', '/admin/provider/faults', { provision_failures: 1 });
    expect(faults.status).toBe(200);
    const answer = await session.post('/numbers', { business_phone: '+14155550123' });
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('provider_unavailable');
    expect(answer.headers.get('retry-after')).toBe('30');
    expect((await admin.request('GET', `/admin/accounts/${session.accountId}`)).body.balance_cents).toBe(10_000);
  });

  // Last: it stops a service.
  it('answers 503 service_unavailable with Retry-After 5 when no service is there to ask, and /readyz names it', async () => {
    await system.services.lostfound!.close();
    const answer = await probes.lostfound.request();
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('service_unavailable');
    expect(answer.headers.get('retry-after')).toBe('5');
    const ready = await publicRequest(system, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.lostfound).toBe('down');
  });
});
