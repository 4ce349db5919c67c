import { AdminClient, ConsoleClient, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(120_000);

const PASSWORD = 'quiet otter builds paper maps';

/**
 * Issue 48: the console's test data switch (docs/adr/0087). A session in test mode reads and changes the account's
 * test twin (docs/adr/0087): numbers, calls, balance, ledger, keys of test mode; the team and the account settings
 * stay the live account's; switching back shows live data again.
 */
describe('the console: switching a session to test data', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let accountId: string;
  let owner: ConsoleClient;

  async function member(email: string, role: string): Promise<ConsoleClient> {
    const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, { email, role });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
    const client = new ConsoleClient(system);
    expect((await client.post('/invites/accept', { token, password: PASSWORD })).status).toBe(200);
    return client;
  }

  const ids = (answer: { body: { data: { id: string }[] } }) => answer.body.data.map((item) => item.id);
  const liveBalance = async () => (await admin.request('GET', `/admin/accounts/${accountId}`)).body.balance_cents;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'calls-media', 'webhook-dispatcher'] });
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 20 })).status).toBe(200);
    accountId = (await admin.createAccount({ name: 'Twin Tacos', balance_cents: 2_000 })).id;
    owner = await member('owner@twin.example', 'owner');
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('switches only with the CSRF token and a known mode; every session starts live', async () => {
    expect((await owner.get('/session')).body.mode).toBe('live');
    const noCsrf = await owner.request('PUT', '/session/mode', { mode: 'test' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('csrf_failed');
    for (const body of [{ mode: 'sandbox' }, {}, { mode: null }]) {
      const bad = await owner.request('PUT', '/session/mode', body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    }
    const signedOut = await new ConsoleClient(system).request('PUT', '/session/mode', { mode: 'test' });
    expect(signedOut.status).toBe(401);
    expect((await owner.get('/session')).body.mode).toBe('live');
  });

  it("shows a test-mode session the twin's numbers, money and calls alone, and the live ones again after", async () => {
    const liveNumber = await owner.post('/numbers', { area_code: '415', business_phone: '+14155550123' });
    expect(liveNumber.status).toBe(201);
    expect(await liveBalance()).toBe(2_000 - 500);

    const switched = await owner.request('PUT', '/session/mode', { mode: 'test' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ mode: 'test', account: { id: accountId, name: 'Twin Tacos' } });
    expect((await owner.get('/session')).body.mode).toBe('test');

    // The twin starts empty, with $100 of test money (made on this first switch).
    expect(ids(await owner.get('/numbers'))).toEqual([]);
    expect((await owner.get('/balance')).body.balance_cents).toBe(10_000);
    expect((await owner.get(`/numbers/${liveNumber.body.id}`)).status).toBe(404);

    const testNumber = await owner.post('/numbers', { area_code: '415', business_phone: '+14155550124' });
    expect(testNumber.status).toBe(201);
    expect(ids(await owner.get('/numbers'))).toEqual([testNumber.body.id]);
    expect((await owner.get('/balance')).body.balance_cents).toBe(10_000 - 500);
    const ledger = await owner.get('/ledger');
    expect(ledger.status).toBe(200);
    expect(ledger.body.data.length).toBeGreaterThan(0);
    // The live balance paid for its own number only.
    expect(await liveBalance()).toBe(2_000 - 500);

    // A call to the test number is the twin's; its transcript reads in test mode.
    const reported = await admin.request('POST', '/admin/provider/calls', {
      to: testNumber.body.phone_number,
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order_placed',
      transcript: [{ role: 'agent', text: 'Twin Tacos, test line.' }],
    });
    expect(reported.status).toBe(202);
    const callSid: string = reported.body.call_sid;
    await waitFor(async () => ((await owner.get('/calls')).body.data.length === 1 ? true : undefined), 15_000);
    expect(ids(await owner.get('/calls'))).toEqual([callSid]);
    expect((await owner.get(`/calls/${callSid}/transcript`)).body.turns).toEqual([
      { role: 'agent', text: 'Twin Tacos, test line.' },
    ]);
    expect((await owner.get(`/numbers/${testNumber.body.id}/webhook-deliveries`)).status).toBe(200);

    // Team and account settings stay the live account's.
    expect((await owner.get('/account')).body.id).toBe(accountId);
    expect((await owner.get('/users')).body.data.map((u: { email: string }) => u.email)).toContain(
      'owner@twin.example',
    );

    const back = await owner.request('PUT', '/session/mode', { mode: 'live' });
    expect(back.status).toBe(200);
    expect(back.body.mode).toBe('live');
    expect(ids(await owner.get('/numbers'))).toEqual([liveNumber.body.id]);
    expect((await owner.get('/balance')).body.balance_cents).toBe(2_000 - 500);
    expect(ids(await owner.get('/calls'))).toEqual([]);
    expect((await owner.get(`/calls/${callSid}`)).status).toBe(404);
  });

  it('makes and lists test keys in test mode, both modes in live mode', async () => {
    expect((await owner.request('PUT', '/session/mode', { mode: 'test' })).status).toBe(200);
    const made = await owner.post('/keys', {});
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ mode: 'test', key: expect.stringMatching(/^sk_test_/) });
    const testKeys = await owner.get('/keys');
    expect(testKeys.body.data.map((k: { mode: string }) => k.mode)).toEqual(['test']);

    expect((await owner.request('PUT', '/session/mode', { mode: 'live' })).status).toBe(200);
    const liveKey = await owner.post('/keys', {});
    expect(liveKey.body.mode).toBe('live');
    const all = await owner.get('/keys');
    expect(all.body.data.map((k: { mode: string }) => k.mode).sort()).toEqual(['live', 'test']);
  });

  it('lets a viewer switch and read test data, with the same rights as in live mode', async () => {
    const viewer = await member('viewer@twin.example', 'viewer');
    const live = ids(await viewer.get('/numbers'));
    expect(live).toHaveLength(1);
    const switched = await viewer.request('PUT', '/session/mode', { mode: 'test' });
    expect(switched.status).toBe(200);
    const test = ids(await viewer.get('/numbers'));
    expect(test).toHaveLength(1);
    expect(test).not.toEqual(live);
    const refused = await viewer.post('/numbers', { area_code: '415', business_phone: '+14155550125' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    // One session's mode is its own: the owner's session is still live.
    expect((await owner.get('/session')).body.mode).toBe('live');
    expect(ids(await owner.get('/numbers'))).toEqual(live);
  });

  it('puts a member made staff while in test mode back on live data, and keeps it there when made a developer again', async () => {
    const email = 'dev-to-staff@twin.example';
    const dev = await member(email, 'developer');
    const otherTab = new ConsoleClient(system);
    expect((await otherTab.post('/sign-in', { email, password: PASSWORD })).status).toBe(200);
    for (const session of [dev, otherTab])
      expect((await session.request('PUT', '/session/mode', { mode: 'test' })).body.mode).toBe('test');
    const devId = (await owner.get('/users')).body.data.find((user: { email: string }) => user.email === email).id;

    expect((await owner.request('PATCH', `/users/${devId}`, { role: 'staff' })).status).toBe(200);
    for (const session of [dev, otherTab]) {
      const seen = (await session.get('/session')).body;
      expect({ role: seen.user.role, mode: seen.mode }).toEqual({ role: 'staff', mode: 'live' });
    }
    // The stored mode was reset, not only hidden while staff: a developer again, the sessions are still live.
    expect((await owner.request('PATCH', `/users/${devId}`, { role: 'developer' })).status).toBe(200);
    for (const session of [dev, otherTab]) {
      const seen = (await session.get('/session')).body;
      expect({ role: seen.user.role, mode: seen.mode }).toEqual({ role: 'developer', mode: 'live' });
    }
  });

  it('keeps test mode through a change between roles that may use it', async () => {
    const email = 'dev-to-viewer@twin.example';
    const dev = await member(email, 'developer');
    expect((await dev.request('PUT', '/session/mode', { mode: 'test' })).body.mode).toBe('test');
    const devId = (await owner.get('/users')).body.data.find((user: { email: string }) => user.email === email).id;
    expect((await owner.request('PATCH', `/users/${devId}`, { role: 'viewer' })).status).toBe(200);
    const seen = (await dev.get('/session')).body;
    expect({ role: seen.user.role, mode: seen.mode }).toEqual({ role: 'viewer', mode: 'test' });
  });
});
