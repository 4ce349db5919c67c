import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

/**
 * Issue 20 over HTTP: every 400 names the field and its real problem, for bodies, query strings and path
 * parameters, on the public and the operator API (wording: docs/adr/0057). The table of every DTO is
 * libs/contracts/src/validation-messages.spec.ts; this one checks what a client reads.
 */
describe('validation messages through the gateway', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let session: ApiSession;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'lostfound'], env: { RATE_LIMIT_REQUESTS: '100000' } });
    admin = new AdminClient(system);
    session = await ApiSession.create(system);
  });
  afterAll(() => system?.stop());

  const call = { to: '+14158675309', caller: '+14158675309', duration_sec: 60, outcome: 'order_placed' };

  it.each<[string, string, string, unknown, string]>([
    ['a number without business_phone', 'POST', '/numbers', {}, 'business_phone is required'],
    [
      'a business_phone sent as a JSON number',
      'POST',
      '/numbers',
      { business_phone: 4155550123 },
      'business_phone must be a valid US phone number in E.164 form (+1 and 10 digits)',
    ],
    ['a limit of 0', 'GET', '/numbers?limit=0', undefined, 'limit must be at least 1'],
    ['a limit that is not a number', 'GET', '/numbers?limit=ten', undefined, 'limit must be an integer'],
    [
      'a cursor over 100 characters',
      'GET',
      `/numbers?starting_after=${'n'.repeat(101)}`,
      undefined,
      'starting_after must be at most 100 characters',
    ],
    [
      'a since that is not a date-time',
      'GET',
      '/calls?since=yesterday',
      undefined,
      'since must be an ISO 8601 date-time',
    ],
    [
      'a found item without location_id',
      'POST',
      '/lostfound/found-items',
      { description: 'Red umbrella' },
      'location_id is required',
    ],
    [
      'a location_id sent as a string',
      'POST',
      '/lostfound/found-items',
      { location_id: '1', description: 'Red umbrella' },
      'location_id must be an integer',
    ],
    [
      'a description over 2000 characters',
      'POST',
      '/lostfound/found-items',
      { location_id: 1, description: 'x'.repeat(2001) },
      'description must be at most 2000 characters',
    ],
    ['an empty found item', 'POST', '/lostfound/found-items', {}, 'location_id is required; description is required'],
    [
      'a misspelt location_id',
      'POST',
      '/lostfound/found-items',
      { locationId: 1, description: 'Red umbrella' },
      'locationId is not a known field; location_id is required',
    ],
    ['a claim list without location_id', 'GET', '/lostfound/claims', undefined, 'location_id is required'],
    [
      'a non-integer location_id in the query',
      'GET',
      '/lostfound/claims?location_id=abc',
      undefined,
      'location_id must be an integer',
    ],
    ['a fractional page', 'GET', '/lostfound/found-items?location_id=1&page=1.5', undefined, 'page must be an integer'],
    [
      'an unknown status',
      'GET',
      '/lostfound/found-items?location_id=1&status=lost',
      undefined,
      'status must be one of stored, returned, donated, disposed',
    ],
    ['a non-integer item id', 'GET', '/lostfound/found-items/abc?location_id=1', undefined, 'id must be an integer'],
    [
      'a non-boolean verified',
      'POST',
      '/lostfound/claims/1/reunite',
      { location_id: 1, found_item_id: 1, verified: 'yes' },
      'verified must be a boolean',
    ],
  ])('public API: %s', async (_, method, path, body, message) => {
    const answer = await session.request(method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'invalid_request', message } });
  });

  it.each<[string, string, (account: string) => string, unknown, string]>([
    ['an account without name', 'POST', () => '/admin/accounts', {}, 'name is required'],
    [
      'an unknown tier',
      'POST',
      () => '/admin/accounts',
      { name: 'A', tier: 'gold' },
      'tier must be one of starter, growth, scale',
    ],
    [
      'a negative balance',
      'POST',
      () => '/admin/accounts',
      { name: 'A', balance_cents: -1 },
      'balance_cents must be at least 0',
    ],
    [
      'a malformed account id',
      'GET',
      () => '/admin/accounts/nope',
      undefined,
      'account_id must be an account id (acct_...)',
    ],
    ['a credit without amount', 'POST', (id) => `/admin/accounts/${id}/credits`, {}, 'amount_cents is required'],
    [
      'an auto top-up without amount',
      'PATCH',
      (id) => `/admin/accounts/${id}`,
      { auto_top_up: { threshold_cents: 100 } },
      'auto_top_up.amount_cents is required',
    ],
    [
      'an auto top-up sent as a list',
      'PATCH',
      (id) => `/admin/accounts/${id}`,
      { auto_top_up: [] },
      'auto_top_up must be an object',
    ],
    [
      'a ledger limit over 100',
      'GET',
      (id) => `/admin/accounts/${id}/ledger?limit=101`,
      undefined,
      'limit must be at most 100',
    ],
    [
      'an allowlist entry that is not a string',
      'POST',
      (id) => `/admin/accounts/${id}/api-keys`,
      { ip_allowlist: ['10.0.0.0/8', 7] },
      'ip_allowlist[1] must be a string',
    ],
    [
      'a transcript turn without role',
      'POST',
      () => '/admin/provider/calls',
      { ...call, transcript: [{ role: 'caller', text: 'hi' }, { text: 'hello' }] },
      'transcript[1].role is required',
    ],
    [
      'a stock count that is not an integer',
      'PUT',
      () => '/admin/provider/stock/415',
      { available: '5' },
      'available must be an integer',
    ],
  ])('operator API: %s', async (_, method, path, body, message) => {
    const answer = await admin.request(method, path(session.accountId), body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'invalid_request', message } });
  });

  it('changes nothing when it refuses', async () => {
    const before = (await admin.request('GET', `/admin/accounts/${session.accountId}`)).body;
    expect(
      (await admin.request('PATCH', `/admin/accounts/${session.accountId}`, { tier: 'growth', auto_top_up: [] }))
        .status,
    ).toBe(400);
    expect((await admin.request('GET', `/admin/accounts/${session.accountId}`)).body).toEqual(before);
  });
});
