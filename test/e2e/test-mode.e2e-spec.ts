import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

/**
 * Issue 17's test mode (docs/adr/0087-test-mode.md): an account can also have test keys (`sk_test_`, asked for with
 * `{"mode": "test"}`); a test key's data is `livemode: false` and never mixes with live data; live keys stay the
 * default and their answers say `livemode: true`.
 */
describe('test mode', () => {
  let system: RunningSystem;
  let admin: AdminClient;

  beforeAll(async () => {
    system = await startSystem();
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 20 })).status).toBe(200);
  });

  afterAll(async () => {
    await system?.stop();
  });

  const numberBody = { area_code: '415', business_phone: '+14155550123' };

  it('makes sk_test_ keys on request, live keys by default', async () => {
    const account = await admin.createAccount({ balance_cents: 1_000 });
    const live = await admin.request('POST', `/admin/accounts/${account.id}/api-keys`, {});
    expect(live.status).toBe(201);
    expect(live.body.key).toMatch(/^sk_live_/);
    expect(live.body.mode).toBe('live');
    const test = await admin.request('POST', `/admin/accounts/${account.id}/api-keys`, { mode: 'test' });
    expect(test.status).toBe(201);
    expect(test.body.key).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(test.body.mode).toBe('test');
    const wrong = await admin.request('POST', `/admin/accounts/${account.id}/api-keys`, { mode: 'sandbox' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('invalid_request');
    const missing = await admin.request('POST', '/admin/accounts/acct_00000000000000000000/api-keys', { mode: 'test' });
    expect(missing.status).toBe(404);
  });

  it('keeps test data apart from live data, marked livemode', async () => {
    const liveSession = await ApiSession.create(system, { balance_cents: 2_000 });
    const testSession = await liveSession.testMode();

    const testNumber = await testSession.post('/numbers', numberBody);
    expect(testNumber.status).toBe(201);
    expect(testNumber.body.livemode).toBe(false);
    const liveNumber = await liveSession.post('/numbers', numberBody);
    expect(liveNumber.status).toBe(201);
    expect(liveNumber.body.livemode).toBe(true);

    const testList = await testSession.get('/numbers');
    expect(testList.body.data.map((n: { id: string }) => n.id)).toEqual([testNumber.body.id]);
    expect(testList.body.livemode).toBe(false);
    expect(testList.body.data[0].livemode).toBe(false);
    const liveList = await liveSession.get('/numbers');
    expect(liveList.body.data.map((n: { id: string }) => n.id)).toEqual([liveNumber.body.id]);
    expect(liveList.body.data[0].livemode).toBe(true);
    // Neither key reaches the other mode's number.
    expect((await liveSession.get(`/numbers/${testNumber.body.id}`)).status).toBe(404);
    expect((await testSession.get(`/numbers/${liveNumber.body.id}`)).status).toBe(404);

    // Test money: the twin opened with $100 and paid its own first month; the live balance paid only its own.
    const testBalance = await testSession.get('/balance');
    expect(testBalance.body).toMatchObject({ balance_cents: 10_000 - 500, livemode: false });
    const liveBalance = await liveSession.get('/balance');
    expect(liveBalance.body).toMatchObject({ balance_cents: 2_000 - 500, livemode: true });
  });

  it('limits each mode to five active keys on its own', async () => {
    const account = await admin.createAccount();
    for (let i = 0; i < 5; i++) await admin.createKey(account.id, undefined, 'test');
    const sixthTest = await admin.request('POST', `/admin/accounts/${account.id}/api-keys`, { mode: 'test' });
    expect(sixthTest.status).toBe(409);
    expect(sixthTest.body.error.code).toBe('key_limit');
    const live = await admin.request('POST', `/admin/accounts/${account.id}/api-keys`, {});
    expect(live.status).toBe(201);
  });

  it('revokes a test key through the live account, at once', async () => {
    const session = await ApiSession.create(system);
    const testSession = await session.testMode();
    expect((await testSession.get('/numbers')).status).toBe(200);
    const revoked = await admin.request('DELETE', `/admin/accounts/${session.accountId}/api-keys/${testSession.keyId}`);
    expect(revoked.status).toBe(200);
    expect((await testSession.get('/numbers')).status).toBe(401);
  });
});
