import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(120_000);

/** Lost and found through the gateway: spec parts 2-7 for /lostfound, and the operator contract's locations and texts. */
describe('lost and found through the gateway', () => {
  let system: RunningSystem;
  let admin: AdminClient;

  beforeAll(async () => {
    // Three texts an account a day, so the texting limit can be reached here (each test has its own account).
    system = await startSystem({
      services: ['numbers-billing', 'lostfound'],
      env: { RATE_LIMIT_REQUESTS: '100000', LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT: '3' },
    });
    admin = new AdminClient(system);
  });
  afterAll(() => system?.stop());

  let phoneCounter = 0;
  const phone = () => `+1415867${String(1000 + (phoneCounter++ % 9000)).padStart(4, '0')}`;

  async function sessionWithLocation(): Promise<{ session: ApiSession; locationId: number }> {
    const session = await ApiSession.create(system);
    const created = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, {
      name: 'Union Station',
    });
    expect(created.status).toBe(201);
    return { session, locationId: created.body.id };
  }

  const umbrella = (locationId: number, extra: Record<string, unknown> = {}) => ({
    location_id: locationId,
    category: 'umbrella',
    description: 'Red umbrella with a wooden handle',
    color: 'red',
    found_area: 'Gate B12',
    found_by: 'Maria',
    storage_ref: 'Bin 4',
    found_date: '2026-11-18',
    ...extra,
  });
  const wallet = (locationId: number, extra: Record<string, unknown> = {}) => ({
    location_id: locationId,
    category: 'wallet',
    description: 'Black leather wallet, initials J.S.',
    color: 'black',
    found_area: 'Food court',
    storage_ref: 'Safe 1',
    found_date: '2026-11-18',
    ...extra,
  });
  const claim = (locationId: number, extra: Record<string, unknown> = {}) => ({
    location_id: locationId,
    claimant_name: 'Jane Smith',
    claimant_phone: phone(),
    category: 'umbrella',
    description: 'red umbrella, wooden handle',
    color: 'red',
    lost_area: 'Gate B12',
    lost_date: '2026-11-17',
    ...extra,
  });

  describe('locations (operator API)', () => {
    it('creates a location with an integer id, lost-and-found on by default', async () => {
      const session = await ApiSession.create(system);
      const answer = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, { name: 'Depot' });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        id: expect.any(Number),
        name: 'Depot',
        lostfound_enabled: true,
        sms_countries: ['US', 'CA'],
        hold_days: 60,
        public_slug: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      });
      expect(Number.isInteger(answer.body.id)).toBe(true);
    });

    it('takes the countries whose claimant phones may be texted, and refuses one that is no country with 400', async () => {
      const session = await ApiSession.create(system);
      const path = `/admin/accounts/${session.accountId}/locations`;
      const answer = await admin.request('POST', path, { name: 'Heathrow T5', sms_countries: ['GB', 'us'] });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ name: 'Heathrow T5', sms_countries: ['GB', 'US'] });
      for (const sms_countries of [['XX'], 'GB', ['G']]) {
        const refused = await admin.request('POST', path, { name: 'Nowhere', sms_countries });
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe('invalid_request');
      }
    });

    it('answers 404 not_found for an account that does not exist', async () => {
      const answer = await admin.request('POST', '/admin/accounts/acct_00000000000000000000/locations', {
        name: 'Nowhere',
      });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    });
  });

  describe('found items', () => {
    it('logs an item (201) and shows it with photos and timeline in the detail and in the list', async () => {
      const { session, locationId } = await sessionWithLocation();
      const created = await session.post(
        '/lostfound/found-items',
        umbrella(locationId, { image_url: 'https://img.example/u.jpg' }),
      );
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.any(Number),
        category: 'umbrella',
        description: 'Red umbrella with a wooden handle',
        color: 'red',
        found_by: 'Maria',
        found_area: 'Gate B12',
        found_date: '2026-11-18',
        storage_ref: 'Bin 4',
        image_url: 'https://img.example/u.jpg',
        status: 'stored',
        source: 'api',
        created_at: expect.any(String),
      });
      const detail = await session.get(`/lostfound/found-items/${created.body.id}?location_id=${locationId}`);
      expect(detail.status).toBe(200);
      expect(detail.body.photos).toEqual(['https://img.example/u.jpg']);
      expect(detail.body.timeline).toEqual([
        { created_at: expect.any(String), action: 'logged', staff_name: 'API', note: expect.any(String) },
      ]);
      const list = await session.get(
        `/lostfound/found-items?location_id=${locationId}&q=umbr&category=Umbrella&area=gate%20b12&from=2026-11-18&to=2026-11-18&status=stored`,
      );
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: 1, page: 1, pages: 1, per: 25 });
      expect(list.body.data.map((item: { id: number }) => item.id)).toEqual([created.body.id]);
    });

    it('answers a page past the last with empty data and the real totals', async () => {
      const { session, locationId } = await sessionWithLocation();
      await session.post('/lostfound/found-items', umbrella(locationId));
      const answer = await session.get(`/lostfound/found-items?location_id=${locationId}&page=5`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        data: [],
        total: 1,
        total_exact: true,
        page: 5,
        pages: 1,
        per: 25,
        livemode: true,
      });
    });

    it("answers 404 location_not_found for another account's location, on every lost-and-found route", async () => {
      const { locationId } = await sessionWithLocation();
      const stranger = await ApiSession.create(system);
      const answers = await Promise.all([
        stranger.post('/lostfound/found-items', umbrella(locationId)),
        stranger.get(`/lostfound/found-items?location_id=${locationId}`),
        stranger.get(`/lostfound/found-items/1?location_id=${locationId}`),
        stranger.post('/lostfound/claims', claim(locationId)),
        stranger.get(`/lostfound/claims?location_id=${locationId}`),
        stranger.get(`/lostfound/claims/1?location_id=${locationId}`),
        stranger.post('/lostfound/claims/1/reunite', { location_id: locationId, found_item_id: 1, verified: true }),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ error: { code: 'location_not_found', message: expect.any(String) } });
      }
    });

    it('answers 404 location_not_found for a location with lost-and-found turned off', async () => {
      const session = await ApiSession.create(system);
      const off = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, {
        name: 'Office',
        lostfound_enabled: false,
      });
      expect(off.body.lostfound_enabled).toBe(false);
      const answer = await session.get(`/lostfound/found-items?location_id=${off.body.id}`);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('location_not_found');
    });

    it.each([
      [
        'a location_id sent as a string',
        'POST',
        '/lostfound/found-items',
        (id: number) => ({ ...umbrella(id), location_id: String(id) }),
      ],
      ['no description', 'POST', '/lostfound/found-items', (id: number) => ({ location_id: id })],
      [
        'a malformed found_date',
        'POST',
        '/lostfound/found-items',
        (id: number) => umbrella(id, { found_date: '18/11/2026' }),
      ],
      ['an unknown field', 'POST', '/lostfound/found-items', (id: number) => umbrella(id, { owner: 'me' })],
      ['a non-integer location_id in the query', 'GET', '/lostfound/found-items?location_id=abc', undefined],
      ['a fractional page', 'GET', '/lostfound/found-items?location_id=1&page=1.5', undefined],
      ['a non-integer item id', 'GET', '/lostfound/found-items/abc?location_id=1', undefined],
      ['no location_id', 'GET', '/lostfound/claims', undefined],
      ['an unknown status', 'GET', '/lostfound/claims?location_id=1&status=lost', undefined],
      [
        'a non-boolean verified',
        'POST',
        '/lostfound/claims/1/reunite',
        (id: number) => ({ location_id: id, found_item_id: 1, verified: 'yes' }),
      ],
      [
        'a claim without claimant_phone',
        'POST',
        '/lostfound/claims',
        (id: number) => ({ location_id: id, claimant_name: 'Jane' }),
      ],
    ])('refuses %s with 400 invalid_request', async (_, method, path, body) => {
      const { session, locationId } = await sessionWithLocation();
      const answer = await session.request(method, path, body ? body(locationId) : undefined);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    });
  });

  describe('claims', () => {
    it.each(['child', 'Person', 'MEDICATION'])(
      'refuses the urgent category %j with 422 urgent_category and never stores it',
      async (category) => {
        const { session, locationId } = await sessionWithLocation();
        const answer = await session.post('/lostfound/claims', claim(locationId, { category }));
        expect(answer.status).toBe(422);
        expect(answer.body.error.code).toBe('urgent_category');
        expect((await session.get(`/lostfound/claims?location_id=${locationId}`)).body.total).toBe(0);
      },
    );

    it('answers a low-value claim with its candidate matches', async () => {
      const { session, locationId } = await sessionWithLocation();
      const item = (await session.post('/lostfound/found-items', umbrella(locationId))).body;
      const answer = await session.post('/lostfound/claims', claim(locationId, { category: 'Umbrella' }));
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ status: 'open', source: 'api', has_match: true });
      expect(answer.body).not.toHaveProperty('verify_required');
      expect(answer.body.matches).toEqual([
        {
          found_item_id: item.id,
          description: item.description,
          color: 'red',
          found_area: 'Gate B12',
          found_date: '2026-11-18',
        },
      ]);
    });

    it('answers a high-value claim with has_match and verify_required only, and keeps item details out of detail and list', async () => {
      const { session, locationId } = await sessionWithLocation();
      await session.post('/lostfound/found-items', wallet(locationId));
      const answer = await session.post(
        '/lostfound/claims',
        claim(locationId, {
          category: 'Wallet',
          description: 'black leather wallet',
          color: 'black',
          lost_area: 'Food court',
          proof_note: 'my library card',
        }),
      );
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ has_match: true, verify_required: true });
      expect(answer.body).not.toHaveProperty('matches');
      const detail = await session.get(`/lostfound/claims/${answer.body.id}?location_id=${locationId}`);
      const list = await session.get(`/lostfound/claims?location_id=${locationId}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        has_match: true,
        verify_required: true,
        photos: [],
        timeline: [expect.objectContaining({ action: 'filed', staff_name: 'API' })],
      });
      for (const body of [answer.body, detail.body, list.body]) {
        expect(JSON.stringify(body)).not.toMatch(/initials|Safe 1|found_item_id/);
      }
    });

    it('texts the claimant when a matching item is logged later, readable at GET /admin/sms', async () => {
      const { session, locationId } = await sessionWithLocation();
      const filed = (await session.post('/lostfound/claims', claim(locationId))).body;
      await session.post('/lostfound/found-items', umbrella(locationId));
      const texts = await admin.request('GET', `/admin/sms?to=${encodeURIComponent(filed.claimant_phone)}`);
      expect(texts.status).toBe(200);
      expect(texts.body).toEqual({
        data: [
          { to: filed.claimant_phone, body: expect.stringContaining('an umbrella (red)'), sent_at: expect.any(String) },
        ],
      });
      // An unencoded + (which a query string reads as a space) finds the same texts.
      const raw = await admin.request('GET', `/admin/sms?to=${filed.claimant_phone}`);
      expect(raw.body.data).toHaveLength(1);
    });

    it('never tells a high-value claimant what the item is in the text', async () => {
      const { session, locationId } = await sessionWithLocation();
      const filed = (
        await session.post(
          '/lostfound/claims',
          claim(locationId, { category: 'wallet', description: 'black wallet', color: 'black' }),
        )
      ).body;
      await session.post('/lostfound/found-items', wallet(locationId));
      const [text] = (await admin.request('GET', `/admin/sms?to=${encodeURIComponent(filed.claimant_phone)}`)).body
        .data;
      expect(text.body).toMatch(/possible match/);
      expect(text.body).not.toMatch(/leather|initials|Safe|black|wallet/i);
    });

    it('keeps GET /admin/sms behind the admin token', async () => {
      const answer = await fetch(`${system.adminUrl}/admin/sms?to=%2B14158671000`);
      expect(answer.status).toBe(401);
    });
  });

  describe('texting limits (docs/adr/0053)', () => {
    const textsTo = async (to: string) =>
      (await admin.request('GET', `/admin/sms?to=${encodeURIComponent(to)}`)).body.data;

    it("refuses an item whose texts would pass the account's daily limit with 429 text_limit, storing nothing", async () => {
      const { session, locationId } = await sessionWithLocation();
      const filed = [];
      for (let n = 0; n < 4; n += 1) filed.push((await session.post('/lostfound/claims', claim(locationId))).body);
      const refused = await session.post('/lostfound/found-items', umbrella(locationId));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: { code: 'text_limit', message: expect.stringContaining('text_claimants') },
      });
      expect((await session.get(`/lostfound/found-items?location_id=${locationId}`)).body.total).toBe(0);
      for (const each of filed) expect(await textsTo(each.claimant_phone)).toEqual([]);

      const quiet = await session.post('/lostfound/found-items', umbrella(locationId, { text_claimants: false }));
      expect(quiet.status).toBe(201);
      for (const each of filed) expect(await textsTo(each.claimant_phone)).toEqual([]);
      expect((await session.get(`/lostfound/claims/${filed[0].id}?location_id=${locationId}`)).body.has_match).toBe(
        true,
      );
    });

    it('files a claim with a phone outside the US and Canada (201) but texts it only where the location allows', async () => {
      const { session, locationId } = await sessionWithLocation();
      const uk = '+447400123456';
      const filed = await session.post('/lostfound/claims', claim(locationId, { claimant_phone: uk }));
      expect([filed.status, filed.body.claimant_phone]).toEqual([201, uk]);
      expect((await session.post('/lostfound/found-items', umbrella(locationId))).status).toBe(201);
      expect(await textsTo(uk)).toEqual([]);

      const heathrow = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, {
        name: 'Heathrow T5',
        sms_countries: ['GB'],
      });
      await session.post('/lostfound/claims', claim(heathrow.body.id, { claimant_phone: uk }));
      await session.post('/lostfound/found-items', umbrella(heathrow.body.id));
      expect((await textsTo(uk)).map((text: { body: string }) => text.body)).toEqual([
        expect.stringMatching(/^Heathrow T5 lost & found/),
      ]);
    });

    it('texts no link that the tenant wrote', async () => {
      const { session, locationId } = await sessionWithLocation();
      const filed = (await session.post('/lostfound/claims', claim(locationId))).body;
      await session.post(
        '/lostfound/found-items',
        umbrella(locationId, {
          description: 'Red umbrella, pay the fee at https://evil.example/pay',
          color: 'red, see bit.ly/x',
        }),
      );
      const [text] = await textsTo(filed.claimant_phone);
      expect(text.body).toContain('an umbrella (red)');
      expect(text.body).not.toMatch(/https?:|evil|bit\.ly|fee/);
    });
  });

  describe('categories as sent', () => {
    it('keeps the category the caller sent and filters on it: category=scarf lists the scarf, not the hat', async () => {
      const { session, locationId } = await sessionWithLocation();
      const scarf = await session.post(
        '/lostfound/found-items',
        umbrella(locationId, { category: 'Scarf', description: 'Green wool scarf', color: 'green' }),
      );
      const hat = await session.post(
        '/lostfound/found-items',
        umbrella(locationId, { category: 'hat', description: 'Grey beanie', color: 'grey' }),
      );
      expect([scarf.status, scarf.body.category, hat.body.category]).toEqual([201, 'scarf', 'hat']);
      const listed = await session.get(`/lostfound/found-items?location_id=${locationId}&category=SCARF`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((item: { id: number }) => item.id)).toEqual([scarf.body.id]);
      const filed = await session.post(
        '/lostfound/claims',
        claim(locationId, { category: 'scarf', description: 'green wool scarf', color: 'green' }),
      );
      expect(filed.body).toMatchObject({ category: 'scarf', has_match: true });
      const claims = await session.get(`/lostfound/claims?location_id=${locationId}&category=clothing`);
      expect(claims.body.total).toBe(0);
    });
  });

  describe('claims and items with no searchable word', () => {
    it.each([
      ['only a category', {}],
      ['the description "it"', { description: 'it' }],
      ['an emoji for a description', { description: '\u{1F302}' }],
    ])('files a claim with %s (201) and matches it by category', async (_, text) => {
      const { session, locationId } = await sessionWithLocation();
      const item = (await session.post('/lostfound/found-items', umbrella(locationId))).body;
      const answer = await session.post('/lostfound/claims', {
        location_id: locationId,
        claimant_name: 'Jane Smith',
        claimant_phone: phone(),
        category: 'umbrella',
        ...text,
      });
      expect(answer.status).toBe(201);
      expect(answer.body.matches.map((match: { found_item_id: number }) => match.found_item_id)).toEqual([item.id]);
    });

    it.each([['it'], ['\u{1F302}']])(
      'logs an item described %j (201), and q=%j filters nothing',
      async (description) => {
        const { session, locationId } = await sessionWithLocation();
        const answer = await session.post('/lostfound/found-items', {
          location_id: locationId,
          category: 'umbrella',
          description,
        });
        expect(answer.status).toBe(201);
        for (const path of ['found-items', 'claims']) {
          const listed = await session.get(
            `/lostfound/${path}?location_id=${locationId}&q=${encodeURIComponent(description)}`,
          );
          expect(listed.status).toBe(200);
          expect(listed.body.total).toBe(path === 'found-items' ? 1 : 0);
        }
      },
    );
  });

  it('describes the lost-and-found routes in the OpenAPI document', async () => {
    const document = (await (await fetch(`${system.publicUrl}/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters: { name: string }[] } }>;
    };
    for (const path of [
      '/v1/lostfound/found-items',
      '/v1/lostfound/found-items/{id}',
      '/v1/lostfound/claims',
      '/v1/lostfound/claims/{id}',
      '/v1/lostfound/claims/{id}/reunite',
    ]) {
      expect(document.paths).toHaveProperty([path]);
    }
    expect(document.paths['/v1/lostfound/found-items'].get.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['location_id', 'status', 'category', 'area', 'from', 'to', 'q', 'page']),
    );
  });

  describe('reunite', () => {
    it('releases the item: 200, item returned, claim reunited, the release in the timeline', async () => {
      const { session, locationId } = await sessionWithLocation();
      const item = (await session.post('/lostfound/found-items', umbrella(locationId))).body;
      const filed = (await session.post('/lostfound/claims', claim(locationId))).body;
      const answer = await session.post(`/lostfound/claims/${filed.id}/reunite`, {
        location_id: locationId,
        found_item_id: item.id,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        reunited: true,
        claim_id: filed.id,
        found_item_id: item.id,
        verified: false,
        livemode: true,
      });
      const detail = (await session.get(`/lostfound/found-items/${item.id}?location_id=${locationId}`)).body;
      expect(detail.status).toBe('returned');
      expect(detail.timeline.map((entry: { action: string }) => entry.action)).toEqual(['logged', 'released']);
      expect((await session.get(`/lostfound/claims/${filed.id}?location_id=${locationId}`)).body.status).toBe(
        'reunited',
      );
    });

    it("answers the spec's errors: 409 verification_required (nothing changes), 409 claim_not_open, 409 item_not_available, 404 not_found", async () => {
      const { session, locationId } = await sessionWithLocation();
      const item = (await session.post('/lostfound/found-items', wallet(locationId))).body;
      const filed = (await session.post('/lostfound/claims', claim(locationId, { category: 'wallet' }))).body;
      const reunite = (claimId: number, body: Record<string, unknown>) =>
        session.post(`/lostfound/claims/${claimId}/reunite`, {
          location_id: locationId,
          found_item_id: item.id,
          ...body,
        });

      const unverified = await reunite(filed.id, {});
      expect([unverified.status, unverified.body.error.code]).toEqual([409, 'verification_required']);
      expect((await session.get(`/lostfound/found-items/${item.id}?location_id=${locationId}`)).body.status).toBe(
        'stored',
      );
      const unknown = await reunite(999_999, { verified: true });
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
      expect((await reunite(filed.id, { verified: true })).status).toBe(200);
      const again = await reunite(filed.id, { verified: true });
      expect([again.status, again.body.error.code]).toEqual([409, 'claim_not_open']);
      const second = (await session.post('/lostfound/claims', claim(locationId, { category: 'wallet' }))).body;
      const gone = await reunite(second.id, { verified: true });
      expect([gone.status, gone.body.error.code]).toEqual([409, 'item_not_available']);
    });

    it('lets exactly one of several parallel reunites of one item win', async () => {
      const { session, locationId } = await sessionWithLocation();
      const item = (await session.post('/lostfound/found-items', umbrella(locationId))).body;
      const claims = [];
      for (let n = 0; n < 6; n += 1) claims.push((await session.post('/lostfound/claims', claim(locationId))).body);
      const answers = await Promise.all(
        claims.map((filed) =>
          session.post(`/lostfound/claims/${filed.id}/reunite`, { location_id: locationId, found_item_id: item.id }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused.map((answer) => [answer.status, answer.body.error.code])).toEqual(
        Array(5).fill([409, 'item_not_available']),
      );
      const reunited = await session.get(`/lostfound/claims?location_id=${locationId}&status=reunited`);
      expect(reunited.body.total).toBe(1);
    });
  });

  describe('Idempotency-Key on every POST', () => {
    it('logs a found item once: a retry answers the first item, marked Idempotent-Replayed', async () => {
      const { session, locationId } = await sessionWithLocation();
      const headers = { 'idempotency-key': 'found-1' };
      const first = await session.post('/lostfound/found-items', umbrella(locationId), headers);
      const retry = await session.post('/lostfound/found-items', umbrella(locationId), headers);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect((await session.get(`/lostfound/found-items?location_id=${locationId}`)).body.total).toBe(1);
      const reused = await session.post('/lostfound/found-items', umbrella(locationId, { color: 'blue' }), headers);
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe('idempotency_key_reused');
      expect((await session.get(`/lostfound/found-items?location_id=${locationId}`)).body.total).toBe(1);
    });

    it('files a claim once: a retry answers the first claim and files no second one', async () => {
      const { session, locationId } = await sessionWithLocation();
      const headers = { 'idempotency-key': 'claim-1' };
      const body = claim(locationId);
      const first = await session.post('/lostfound/claims', body, headers);
      const retry = await session.post('/lostfound/claims', body, headers);
      expect(first.status).toBe(201);
      expect(retry).toMatchObject({ status: 201, body: first.body });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await session.get(`/lostfound/claims?location_id=${locationId}`)).body.total).toBe(1);
      const reused = await session.post('/lostfound/claims', { ...body, claimant_name: 'John Smith' }, headers);
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe('idempotency_key_reused');
    });

    it('reunites once: a retry answers the first 200, not 409 claim_not_open; the key is bound to the claim in the path', async () => {
      const { session, locationId } = await sessionWithLocation();
      const item = (await session.post('/lostfound/found-items', umbrella(locationId))).body;
      const filed = (await session.post('/lostfound/claims', claim(locationId))).body;
      const headers = { 'idempotency-key': 'reunite-1' };
      const body = { location_id: locationId, found_item_id: item.id };
      const first = await session.post(`/lostfound/claims/${filed.id}/reunite`, body, headers);
      const retry = await session.post(`/lostfound/claims/${filed.id}/reunite`, body, headers);
      expect(first).toMatchObject({ status: 200, body: { reunited: true } });
      expect(retry).toMatchObject({ status: 200, body: first.body });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await session.post(`/lostfound/claims/${filed.id}/reunite`, body)).body.error.code).toBe(
        'claim_not_open',
      );
      const otherClaim = await session.post(`/lostfound/claims/${filed.id + 1}/reunite`, body, headers);
      expect(otherClaim.status).toBe(422);
      expect(otherClaim.body.error.code).toBe('idempotency_key_reused');
    });

    it('scopes a key to its account: another account may use the same key for its own request', async () => {
      const [a, b] = await Promise.all([sessionWithLocation(), sessionWithLocation()]);
      const headers = { 'idempotency-key': 'shared-key' };
      const first = await a.session.post('/lostfound/found-items', umbrella(a.locationId), headers);
      const second = await b.session.post('/lostfound/found-items', umbrella(b.locationId), headers);
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(second.body.id).not.toBe(first.body.id);
    });
  });
});
