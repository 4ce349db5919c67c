import {
  AdminClient,
  ApiSession,
  ConsoleClient,
  publicRequest,
  startSystem,
  type HttpAnswer,
  type JsonBody,
  type RunningSystem,
} from './support';

jest.setTimeout(180_000);

/**
 * Issue 16 through the gateway: disposal after the hold period (docs/adr/0079), the claimant page's backend
 * (docs/adr/0079) and lost-item reports taken on the phone (docs/adr/0079).
 */
describe('lost-and-found desk through the gateway', () => {
  let system: RunningSystem;
  let admin: AdminClient;

  beforeAll(async () => {
    // The gateway trusts 127.0.0.1 as a proxy, so each test speaks from an address of its own (X-Forwarded-For):
    // the claimant limit is per address, 5 requests per window here.
    system = await startSystem({
      services: ['numbers-billing', 'calls-media', 'lostfound'],
      env: { RATE_LIMIT_REQUESTS: '100000', TRUSTED_PROXIES: '127.0.0.1', CLAIMANT_RATE_LIMIT_REQUESTS: '5' },
    });
    admin = new AdminClient(system);
  });
  afterAll(() => system?.stop());

  let addressCounter = 1;
  const newAddress = () => `203.0.113.${addressCounter++}`;
  let phoneCounter = 0;
  const phone = () => `+1415868${String(1000 + phoneCounter++).padStart(4, '0')}`;

  async function sessionWithLocation(
    body: Record<string, unknown> = {},
  ): Promise<{ session: ApiSession; location: { id: number; public_slug: string; hold_days: number } }> {
    const session = await ApiSession.create(system);
    const created = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, {
      name: 'Union Station',
      ...body,
    });
    expect(created.status).toBe(201);
    return { session, location: created.body };
  }

  function claimant<T = JsonBody>(
    method: string,
    path: string,
    options: { from: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { 'x-forwarded-for': options.from, ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return publicRequest<T>(system, method, path, {
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  }

  const webClaim = (extra: Record<string, unknown> = {}) => ({
    claimant_name: 'Jane Smith',
    claimant_phone: phone(),
    category: 'umbrella',
    description: 'Red umbrella with a wooden handle',
    color: 'red',
    lost_area: 'Gate B12',
    lost_date: '2026-11-17',
    ...extra,
  });

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe('locations', () => {
    it('gives each new location a 128-bit URL-safe public_slug and hold_days 60, and the operator may change both', async () => {
      const { session, location } = await sessionWithLocation();
      expect(location).toMatchObject({ hold_days: 60, public_slug: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
      const other = await sessionWithLocation({ hold_days: 30 });
      expect(other.location.hold_days).toBe(30);
      expect(other.location.public_slug).not.toBe(location.public_slug);

      const patched = await admin.request('PATCH', `/admin/accounts/${session.accountId}/locations/${location.id}`, {
        hold_days: 90,
      });
      expect(patched).toMatchObject({
        status: 200,
        body: { id: location.id, hold_days: 90, public_slug: location.public_slug },
      });
      const rotated = await admin.request(
        'POST',
        `/admin/accounts/${session.accountId}/locations/${location.id}/public-slug`,
      );
      expect(rotated.status).toBe(200);
      expect(rotated.body.public_slug).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(rotated.body.public_slug).not.toBe(location.public_slug);
      const from = newAddress();
      expect((await claimant('GET', `/claim/api/locations/${location.public_slug}`, { from })).status).toBe(404);
      expect((await claimant('GET', `/claim/api/locations/${rotated.body.public_slug}`, { from })).status).toBe(200);
    });

    it("refuses another account's location with 404 and a bad hold_days with 400, changing nothing", async () => {
      const { location } = await sessionWithLocation();
      const stranger = await ApiSession.create(system);
      const foreign = await admin.request('PATCH', `/admin/accounts/${stranger.accountId}/locations/${location.id}`, {
        hold_days: 1,
      });
      expect(foreign).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
      const bad = await admin.request('PATCH', `/admin/accounts/${stranger.accountId}/locations/${location.id}`, {
        hold_days: 0,
      });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    });
  });

  describe('disposal after the hold period', () => {
    const item = (locationId: number, foundDate: string) => ({
      location_id: locationId,
      category: 'umbrella',
      description: 'Blue umbrella',
      color: 'blue',
      found_date: foundDate,
    });
    const today = () => new Date().toISOString().slice(0, 10);

    it('refuses an item still in its hold period with 409 hold_period_not_over, changing nothing', async () => {
      const { session, location } = await sessionWithLocation();
      const logged = (await session.post('/lostfound/found-items', item(location.id, today()))).body;
      const refused = await session.post(`/lostfound/found-items/${logged.id}/disposal`, {
        location_id: location.id,
        outcome: 'donated',
      });
      expect(refused).toMatchObject({ status: 409, body: { error: { code: 'hold_period_not_over' } } });
      expect(refused.body.error.message).toContain('60 days');
      const detail = (await session.get(`/lostfound/found-items/${logged.id}?location_id=${location.id}`)).body;
      expect(detail.status).toBe('stored');
      expect(detail.hold_until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(detail.timeline.map((entry: { action: string }) => entry.action)).toEqual(['logged']);
    });

    it('donates an item held past its hold period: status donated, the move on the custody timeline with its actor', async () => {
      const { session, location } = await sessionWithLocation();
      const logged = (await session.post('/lostfound/found-items', item(location.id, '2026-08-01'))).body;
      const body = {
        location_id: location.id,
        outcome: 'donated',
        note: 'Given to the charity shop',
        staff_name: 'Ines',
      };
      const donated = await session.post(`/lostfound/found-items/${logged.id}/disposal`, body, {
        'idempotency-key': `dispose-${logged.id}`,
      });
      expect(donated.status).toBe(200);
      expect(donated.body).toMatchObject({ id: logged.id, status: 'donated' });
      expect(donated.body.hold_until).toBeUndefined();
      expect(
        donated.body.timeline.map((entry: { action: string; staff_name: string }) => [entry.action, entry.staff_name]),
      ).toEqual([
        ['logged', 'API'],
        ['donated', 'Ines'],
      ]);
      expect(donated.body.timeline[1].note).toBe('Given to the charity shop');
      const replay = await session.post(`/lostfound/found-items/${logged.id}/disposal`, body, {
        'idempotency-key': `dispose-${logged.id}`,
      });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      const again = await session.post(`/lostfound/found-items/${logged.id}/disposal`, {
        location_id: location.id,
        outcome: 'disposed',
      });
      expect(again).toMatchObject({ status: 409, body: { error: { code: 'item_not_available' } } });
      const listed = (await session.get(`/lostfound/found-items?location_id=${location.id}&status=donated`)).body;
      expect(listed.data.map((row: { id: number }) => row.id)).toEqual([logged.id]);
    });

    it('refuses an item already reunited, and follows a changed hold_days', async () => {
      const { session, location } = await sessionWithLocation({ hold_days: 200 });
      const old = (await session.post('/lostfound/found-items', item(location.id, '2026-08-01'))).body;
      expect(
        (
          await session.post(`/lostfound/found-items/${old.id}/disposal`, {
            location_id: location.id,
            outcome: 'disposed',
          })
        ).status,
      ).toBe(409);
      await admin.request('PATCH', `/admin/accounts/${session.accountId}/locations/${location.id}`, { hold_days: 30 });
      const disposed = await session.post(`/lostfound/found-items/${old.id}/disposal`, {
        location_id: location.id,
        outcome: 'disposed',
      });
      expect(disposed).toMatchObject({ status: 200, body: { status: 'disposed' } });

      const returned = (await session.post('/lostfound/found-items', item(location.id, '2026-08-01'))).body;
      const filed = (
        await session.post('/lostfound/claims', {
          location_id: location.id,
          claimant_name: 'Jo',
          claimant_phone: phone(),
          category: 'umbrella',
          description: 'blue umbrella',
        })
      ).body;
      expect(
        (
          await session.post(`/lostfound/claims/${filed.id}/reunite`, {
            location_id: location.id,
            found_item_id: returned.id,
          })
        ).status,
      ).toBe(200);
      const refused = await session.post(`/lostfound/found-items/${returned.id}/disposal`, {
        location_id: location.id,
        outcome: 'donated',
      });
      expect(refused).toMatchObject({ status: 409, body: { error: { code: 'item_not_available' } } });
    });

    it("answers 404 for another account's item and 400 for a bad outcome", async () => {
      const { session, location } = await sessionWithLocation();
      const logged = (await session.post('/lostfound/found-items', item(location.id, '2026-08-01'))).body;
      const stranger = await sessionWithLocation();
      const foreign = await stranger.session.post(`/lostfound/found-items/${logged.id}/disposal`, {
        location_id: stranger.location.id,
        outcome: 'donated',
      });
      expect(foreign).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
      const bad = await session.post(`/lostfound/found-items/${logged.id}/disposal`, {
        location_id: location.id,
        outcome: 'sold',
      });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
      expect(bad.body.error.message).toContain('outcome must be one of: donated, disposed');
    });

    it('is described in the OpenAPI document with Idempotency-Key', async () => {
      const doc = (await publicRequest(system, 'GET', '/v1/openapi.json')).body;
      const disposal = doc.paths['/v1/lostfound/found-items/{id}/disposal'].post;
      expect(disposal.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
      expect(Object.keys(doc.paths).filter((path) => path.startsWith('/claim'))).toEqual([]);
    });
  });

  describe('the claimant page', () => {
    it('shows the location by slug: its name and categories, nothing else, never cached', async () => {
      const { location } = await sessionWithLocation();
      const answer = await claimant('GET', `/claim/api/locations/${location.public_slug}`, { from: newAddress() });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['categories', 'name']);
      expect(answer.body.name).toBe('Union Station');
      expect(answer.body.categories).toEqual(expect.arrayContaining(['umbrella', 'wallet']));
      expect(answer.body.categories).not.toContain('child');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('files a claim with source web (201), answering no item, and staff see it in the API', async () => {
      const { session, location } = await sessionWithLocation();
      await session.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'umbrella',
        description: 'Red umbrella, wooden handle',
        color: 'red',
        found_area: 'Gate B12',
        found_date: '2026-11-18',
      });
      const sent = webClaim();
      const answer = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from: newAddress(),
        body: sent,
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ received: true, source: 'web', message: expect.stringContaining('text you') });
      const listed = (await session.get(`/lostfound/claims?location_id=${location.id}`)).body.data;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        source: 'web',
        claimant_phone: sent.claimant_phone,
        category: 'umbrella',
        has_match: true,
      });
      const detail = (await session.get(`/lostfound/claims/${listed[0].id}?location_id=${location.id}`)).body;
      expect(detail.timeline[0]).toMatchObject({ action: 'filed', staff_name: 'Claimant page' });
    });

    it('says nothing about a high-value item either', async () => {
      const { session, location } = await sessionWithLocation();
      await session.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'wallet',
        description: 'Black leather wallet',
        color: 'black',
        found_date: '2026-11-18',
      });
      const answer = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from: newAddress(),
        body: webClaim({ category: 'wallet', description: 'black leather wallet', color: 'black' }),
      });
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body).sort()).toEqual(['message', 'received', 'source']);
      expect(JSON.stringify(answer.body)).not.toMatch(/leather|found_item|has_match|verify/i);
    });

    it('refuses an urgent category with 422 urgent_category, telling the person to call the venue or emergency services', async () => {
      const { session, location } = await sessionWithLocation();
      const answer = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from: newAddress(),
        body: webClaim({ category: 'child', description: 'my son, 6, blue jacket' }),
      });
      expect(answer).toMatchObject({ status: 422, body: { error: { code: 'urgent_category' } } });
      expect(answer.body.error.message).toMatch(/call the venue/);
      expect(answer.body.error.message).toMatch(/emergency services/);
      expect((await session.get(`/lostfound/claims?location_id=${location.id}`)).body.total).toBe(0);
    });

    it('answers the same 404 for an unknown slug, a malformed one and a location without lost-and-found', async () => {
      const disabled = await sessionWithLocation({ lostfound_enabled: false });
      const from = newAddress();
      const answers = await Promise.all([
        claimant('GET', '/claim/api/locations/AAAAAAAAAAAAAAAAAAAAAA', { from }),
        claimant('GET', '/claim/api/locations/nope', { from }),
        claimant('GET', `/claim/api/locations/${disabled.location.public_slug}`, { from }),
        claimant('POST', `/claim/api/locations/${disabled.location.public_slug}/claims`, { from, body: webClaim() }),
      ]);
      for (const answer of answers)
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: answers[0].body });
      expect(answers[0].body.error.code).toBe('not_found');
    });

    it('answers a slug of %00 with the same 404, on the API and on the page (it was 400, issue 47)', async () => {
      const from = newAddress();
      const unknown = await claimant('GET', '/claim/api/locations/nope', { from });
      const nul = await Promise.all([
        claimant('GET', '/claim/api/locations/%00', { from }),
        claimant('GET', '/claim/api/locations/a%00b', { from }),
        claimant('POST', '/claim/api/locations/%00/claims', { from, body: webClaim() }),
      ]);
      for (const answer of nul)
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: unknown.body });
      // The page: a NUL names no file and no page of the console, 404 like any other path it cannot serve.
      const page = await publicRequest(system, 'GET', '/console/claim/%00');
      expect(page.status).toBe(404);
      expect((await publicRequest(system, 'GET', '/console/claim/nope')).status).toBe(200);
    });

    it('limits each client address: 429 with Retry-After past the limit, other addresses unaffected', async () => {
      const { location } = await sessionWithLocation();
      const from = newAddress();
      for (let i = 0; i < 5; i++)
        expect((await claimant('GET', `/claim/api/locations/${location.public_slug}`, { from })).status).toBe(200);
      const limited = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from,
        body: webClaim(),
      });
      expect(limited).toMatchObject({ status: 429, body: { error: { code: 'rate_limited' } } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(
        (await claimant('GET', `/claim/api/locations/${location.public_slug}`, { from: newAddress() })).status,
      ).toBe(200);
    });

    it('refuses a bad body with 400 and an oversized one with 413, filing nothing', async () => {
      const { session, location } = await sessionWithLocation();
      const bad = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from: newAddress(),
        body: webClaim({ claimant_phone: 'call me' }),
      });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
      const huge = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from: newAddress(),
        body: webClaim({ description: 'x'.repeat(9000) }),
      });
      expect(huge).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
      expect((await session.get(`/lostfound/claims?location_id=${location.id}`)).body.total).toBe(0);
    });

    it('replays a retried claim with the same Idempotency-Key instead of filing it twice', async () => {
      const { session, location } = await sessionWithLocation();
      const from = newAddress();
      const body = webClaim();
      const first = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from,
        body,
        headers: { 'idempotency-key': 'claim-once' },
      });
      const retry = await claimant('POST', `/claim/api/locations/${location.public_slug}/claims`, {
        from,
        body,
        headers: { 'idempotency-key': 'claim-once' },
      });
      expect([first.status, retry.status]).toEqual([201, 201]);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await session.get(`/lostfound/claims?location_id=${location.id}`)).body.total).toBe(1);
    });
  });

  describe('reports by phone', () => {
    let areaCounter = 0;
    async function numberOf(session: ApiSession): Promise<{ id: string; phone_number: string }> {
      const area = ['212', '305', '312', '415', '512', '617', '702', '718'][areaCounter++ % 8];
      await admin.request('PUT', `/admin/provider/stock/${area}`, { available: 5 });
      const created = await session.post('/numbers', { business_phone: '+14155550123', area_code: area });
      expect(created.status).toBe(201);
      return created.body;
    }

    it("links a number to the account's location, and refuses another account's location or number with 404", async () => {
      const { session, location } = await sessionWithLocation();
      const number = await numberOf(session);
      const linked = await session.request('PUT', `/lostfound/phone-lines/${number.id}`, { location_id: location.id });
      expect(linked).toMatchObject({ status: 200, body: { number_id: number.id, location_id: location.id } });
      expect((await session.get(`/lostfound/phone-lines/${number.id}`)).body.location_id).toBe(location.id);

      const stranger = await sessionWithLocation();
      const foreignLocation = await session.request('PUT', `/lostfound/phone-lines/${number.id}`, {
        location_id: stranger.location.id,
      });
      expect(foreignLocation).toMatchObject({ status: 404, body: { error: { code: 'location_not_found' } } });
      const foreignNumber = await stranger.session.request('PUT', `/lostfound/phone-lines/${number.id}`, {
        location_id: stranger.location.id,
      });
      expect(foreignNumber).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
      expect((await session.get(`/lostfound/phone-lines/${number.id}`)).body.location_id).toBe(location.id);
    });

    it('files one claim with source phone for a lost_item_report call, and texts the caller when a match is logged', async () => {
      const { session, location } = await sessionWithLocation();
      const number = await numberOf(session);
      expect(
        (await session.request('PUT', `/lostfound/phone-lines/${number.id}`, { location_id: location.id })).status,
      ).toBe(200);
      const caller = phone();
      const report = await admin.request('POST', '/admin/provider/calls', {
        to: number.phone_number,
        caller,
        duration_sec: 95,
        outcome: 'lost_item_report',
        lost_item: {
          category: 'umbrella',
          description: 'Green umbrella with a duck handle',
          color: 'green',
          where_lost: 'Platform 4',
          lost_at: '2026-11-20T18:30:00Z',
          caller_name: 'Sam Lee',
        },
      });
      expect(report.status).toBe(202);

      const claims = await waitFor(
        async () => (await session.get(`/lostfound/claims?location_id=${location.id}`)).body,
        (page) => page.total > 0,
      );
      expect(claims.total).toBe(1);
      expect(claims.data[0]).toMatchObject({
        source: 'phone',
        claimant_phone: caller,
        claimant_name: 'Sam Lee',
        category: 'umbrella',
        color: 'green',
        lost_area: 'Platform 4',
        lost_date: '2026-11-20',
      });

      await session.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'umbrella',
        description: 'Green umbrella, duck handle',
        color: 'green',
        found_area: 'Platform 4',
        found_date: '2026-11-21',
      });
      const texts = await waitFor(
        async () => (await admin.request('GET', `/admin/sms?to=${encodeURIComponent(caller)}`)).body.data,
        (data: unknown[]) => data.length > 0,
      );
      expect(texts).toEqual([{ to: caller, body: expect.stringContaining('umbrella'), sent_at: expect.any(String) }]);
      // Still one claim for the call.
      expect((await session.get(`/lostfound/claims?location_id=${location.id}`)).body.total).toBe(1);
    });

    it("agrees on a phone claim's match everywhere when the desk logs the phone with no category", async () => {
      const { session, location } = await sessionWithLocation();
      const number = await numberOf(session);
      expect(
        (await session.request('PUT', `/lostfound/phone-lines/${number.id}`, { location_id: location.id })).status,
      ).toBe(200);
      const invited = await admin.request('POST', `/admin/accounts/${session.accountId}/users`, {
        email: `desk-${session.accountId}@example.com`,
        role: 'staff',
      });
      expect(invited.status).toBe(201);
      const desk = new ConsoleClient(system);
      const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
      expect((await desk.post('/invites/accept', { token, password: 'harbour lights at midnight' })).status).toBe(200);

      const caller = phone();
      const report = await admin.request('POST', '/admin/provider/calls', {
        to: number.phone_number,
        caller,
        duration_sec: 70,
        outcome: 'lost_item_report',
        lost_item: {
          category: 'phone',
          description: 'Black iPhone 13 in a red case',
          color: 'black',
          where_lost: 'Platform 2',
          caller_name: 'Ana Ruiz',
        },
      });
      expect(report.status).toBe(202);
      const filed = await waitFor(
        async () => (await session.get(`/lostfound/claims?location_id=${location.id}`)).body,
        (page) => page.total > 0,
      );
      const claimId = filed.data[0].id as number;
      expect(filed.data[0]).toMatchObject({
        source: 'phone',
        category: 'phone',
        has_match: false,
        verify_required: true,
      });

      // Logged at the desk as staff type it: no category, the phone named in the description.
      const logged = await desk.post('/lostfound/found-items', {
        location_id: location.id,
        description: 'Black iPhone 13, red case',
        color: 'black',
        found_area: 'Platform 2',
        storage_ref: 'Safe 1',
      });
      expect(logged.status).toBe(201);
      // The guess is the vocabulary's word, the one the claim was filed with.
      expect(logged.body.category).toBe('phone');

      const texts = await waitFor(
        async () => (await admin.request('GET', `/admin/sms?to=${encodeURIComponent(caller)}`)).body.data,
        (data: unknown[]) => data.length > 0,
      );
      expect(texts).toEqual([
        { to: caller, body: expect.stringContaining('possible match'), sent_at: expect.any(String) },
      ]);
      const listed = (await desk.get(`/lostfound/claims?location_id=${location.id}`)).body.data;
      expect(listed.map((claim: JsonBody) => [claim.id, claim.has_match])).toEqual([[claimId, true]]);
      const viaApi = await session.get(`/lostfound/claims/${claimId}?location_id=${location.id}`);
      expect(viaApi.body).toMatchObject({ has_match: true, verify_required: true });
      expect(viaApi.body.matches).toBeUndefined();

      // The claim page's candidates are the item that made has_match true and sent the text.
      const candidates = await desk.get(`/lostfound/claims/${claimId}/candidates?location_id=${location.id}`);
      expect(candidates).toMatchObject({ status: 200 });
      expect(candidates.body).toEqual({
        data: [
          {
            found_item_id: logged.body.id,
            category: 'phone',
            description: 'Black iPhone 13, red case',
            color: 'black',
            found_area: 'Platform 2',
            found_date: logged.body.found_date,
            storage_ref: 'Safe 1',
            value_class: 'high',
          },
        ],
        total: 1,
      });
      // The desk's list filtered on the claim's category finds the item too.
      const sameCategory = await desk.get(`/lostfound/found-items?location_id=${location.id}&category=phone`);
      expect(sameCategory.body.data.map((item: JsonBody) => item.id)).toEqual([logged.body.id]);

      // Console only, and scoped: not a /v1 route, and an id no claim of the location has is 404 not_found.
      expect((await session.get(`/lostfound/claims/${claimId}/candidates?location_id=${location.id}`)).status).toBe(
        404,
      );
      const unknown = await desk.get(`/lostfound/claims/${claimId + 1000}/candidates?location_id=${location.id}`);
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });

      // Once the phone is given back, nothing is a candidate and the claim has no match left.
      const reunited = await desk.post(`/lostfound/claims/${claimId}/reunite`, {
        location_id: location.id,
        found_item_id: logged.body.id,
        verified: true,
      });
      expect(reunited.status).toBe(200);
      const after = await desk.get(`/lostfound/claims/${claimId}/candidates?location_id=${location.id}`);
      expect(after.body).toEqual({ data: [], total: 0 });
      expect((await desk.get(`/lostfound/claims/${claimId}?location_id=${location.id}`)).body.has_match).toBe(false);
    });

    it('files nothing for a number that is no lost-and-found line, and refuses lost_item with another outcome', async () => {
      const { session, location } = await sessionWithLocation();
      const number = await numberOf(session);
      const lostItem = { category: 'umbrella', description: 'Grey umbrella' };
      const bad = await admin.request('POST', '/admin/provider/calls', {
        to: number.phone_number,
        caller: phone(),
        duration_sec: 10,
        outcome: 'order_placed',
        lost_item: lostItem,
      });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
      const report = await admin.request('POST', '/admin/provider/calls', {
        to: number.phone_number,
        caller: phone(),
        duration_sec: 10,
        outcome: 'lost_item_report',
        lost_item: lostItem,
      });
      expect(report.status).toBe(202);
      await waitFor(
        async () => (await session.get('/calls')).body.data,
        (data: unknown[]) => data.length > 0,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await session.get(`/lostfound/claims?location_id=${location.id}`)).body.total).toBe(0);
    });
  });
});
