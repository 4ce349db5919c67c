import { AdminClient, ConsoleClient, startSystem, type RunningSystem } from './support';

jest.setTimeout(180_000);

const PASSWORD = 'quiet otter builds paper maps';

/**
 * Issue 16's desk through the console (docs/adr/0080): `/console/api/lostfound/*` with a session, the same rules as
 * `/v1/lostfound`, the `staff` role that reaches nothing else, and one account's desk blind to another's.
 */
describe('the lost-and-found desk in the console', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let emailCounter = 0;

  async function member(accountId: string, role: string): Promise<ConsoleClient> {
    const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, {
      email: `desk${emailCounter++}-${role}@example.com`,
      role,
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
    const client = new ConsoleClient(system);
    const accepted = await client.post('/invites/accept', { token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user.role).toBe(role);
    return client;
  }

  async function accountWithLocation(
    name: string,
  ): Promise<{ accountId: string; location: { id: number; name: string; public_slug: string; hold_days: number } }> {
    const accountId = (await admin.createAccount({ name, balance_cents: 10_000 })).id;
    const created = await admin.request('POST', `/admin/accounts/${accountId}/locations`, {
      name: `${name} Station`,
      hold_days: 30,
    });
    expect(created.status).toBe(201);
    return { accountId, location: created.body };
  }

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'lostfound'], env: { RATE_LIMIT_REQUESTS: '100000' } });
    admin = new AdminClient(system);
  });
  afterAll(() => system?.stop());

  describe('a staff user', () => {
    let accountId: string;
    let location: { id: number; name: string; public_slug: string; hold_days: number };
    let staff: ConsoleClient;

    beforeAll(async () => {
      ({ accountId, location } = await accountWithLocation('Harbour'));
      staff = await member(accountId, 'staff');
    });

    it("lists the account's lost-and-found locations, disabled ones left out", async () => {
      const disabled = await admin.request('POST', `/admin/accounts/${accountId}/locations`, {
        name: 'Closed Annex',
        lostfound_enabled: false,
      });
      expect(disabled.status).toBe(201);
      const listed = await staff.get('/lostfound/locations');
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([
        { id: location.id, name: 'Harbour Station', hold_days: 30, public_slug: location.public_slug },
      ]);
      expect(listed.body.categories).toEqual(expect.arrayContaining(['umbrella', 'wallet']));
      expect(listed.body.categories).not.toContain('child');
    });

    it('logs an item, finds it by q, files a claim that matches, and reunites it', async () => {
      const logged = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'umbrella',
        description: 'Red umbrella, wooden handle',
        color: 'red',
        found_area: 'Gate 4',
        storage_ref: 'Shelf A3',
      });
      expect(logged.status).toBe(201);
      const found = await staff.get(`/lostfound/found-items?location_id=${location.id}&q=wooden`);
      expect(found.status).toBe(200);
      expect(found.body.data.map((i: { id: number }) => i.id)).toEqual([logged.body.id]);
      const item = await staff.get(`/lostfound/found-items/${logged.body.id}?location_id=${location.id}`);
      expect(item.status).toBe(200);
      // The custody chain names the person at the desk, not "API".
      expect(item.body.timeline[0]).toMatchObject({
        action: 'logged',
        staff_name: expect.stringMatching(/-staff@example\.com$/),
        note: expect.stringMatching(/^Logged at the desk\./),
      });

      const claim = await staff.post('/lostfound/claims', {
        location_id: location.id,
        claimant_name: 'Jane Smith',
        claimant_phone: '+14155550142',
        category: 'umbrella',
        description: 'red umbrella with a wooden handle',
      });
      expect(claim.status).toBe(201);
      expect(claim.body.matches.map((m: { found_item_id: number }) => m.found_item_id)).toContain(logged.body.id);
      const claims = await staff.get(`/lostfound/claims?location_id=${location.id}`);
      expect(claims.body.data.map((c: { id: number }) => c.id)).toContain(claim.body.id);

      const reunited = await staff.post(`/lostfound/claims/${claim.body.id}/reunite`, {
        location_id: location.id,
        found_item_id: logged.body.id,
        verified: true,
      });
      expect(reunited.status).toBe(200);
      expect(reunited.body).toMatchObject({
        reunited: true,
        claim_id: claim.body.id,
        found_item_id: logged.body.id,
        verified: true,
      });
      const detail = await staff.get(`/lostfound/claims/${claim.body.id}?location_id=${location.id}`);
      expect(detail.body.status).toBe('reunited');
      expect(detail.body.timeline.at(-1)).toMatchObject({
        action: 'reunited',
        staff_name: expect.stringMatching(/-staff@example\.com$/),
      });
      const released = await staff.get(`/lostfound/found-items/${logged.body.id}?location_id=${location.id}`);
      expect(released.body.timeline.at(-1)).toMatchObject({
        action: 'released',
        staff_name: expect.stringMatching(/-staff@example\.com$/),
      });
    });

    it('shows on the claim the texts sent to its claimant when a matching item is logged later', async () => {
      const claim = await staff.post('/lostfound/claims', {
        location_id: location.id,
        claimant_name: 'Ada Reed',
        claimant_phone: '+14155550145',
        category: 'umbrella',
        description: 'green umbrella with a bamboo handle',
        color: 'green',
      });
      expect(claim.status).toBe(201);
      const before = await staff.get(`/lostfound/claims/${claim.body.id}?location_id=${location.id}`);
      expect(before.body.texts).toEqual([]);

      const logged = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'umbrella',
        description: 'Green umbrella, bamboo handle',
        color: 'green',
        found_area: 'Gate 7',
        storage_ref: 'Shelf B1',
      });
      expect(logged.status).toBe(201);
      const detail = await staff.get(`/lostfound/claims/${claim.body.id}?location_id=${location.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.texts).toEqual([
        { body: expect.stringContaining(`claim #${claim.body.id}`), sent_at: expect.any(String) },
      ]);
      expect(detail.body.texts[0].body).toContain('an umbrella (green)');
    });

    it('logs an item with several photo URLs and shows them all on the item, refusing more than 10', async () => {
      const logged = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'bag',
        description: 'Blue canvas tote bag',
        image_url: 'https://img.example/tote-front.jpg',
        photo_urls: ['https://img.example/tote-side.jpg', 'https://img.example/tote-inside.jpg'],
      });
      expect(logged.status).toBe(201);
      const item = await staff.get(`/lostfound/found-items/${logged.body.id}?location_id=${location.id}`);
      expect(item.body.photos).toEqual([
        'https://img.example/tote-front.jpg',
        'https://img.example/tote-side.jpg',
        'https://img.example/tote-inside.jpg',
      ]);
      const tooMany = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'bag',
        description: 'Another tote bag',
        photo_urls: Array.from({ length: 11 }, (_, i) => `https://img.example/${i}.jpg`),
      });
      expect(tooMany.status).toBe(400);
    });

    it('explains the high-value rule when verified is missing, and changes nothing', async () => {
      const logged = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'wallet',
        description: 'Brown leather wallet',
      });
      const claim = await staff.post('/lostfound/claims', {
        location_id: location.id,
        claimant_name: 'Sam Lee',
        claimant_phone: '+14155550143',
        category: 'wallet',
        description: 'brown leather wallet',
      });
      expect(claim.status).toBe(201);
      expect(claim.body.verify_required).toBe(true);
      expect(claim.body).not.toHaveProperty('matches');
      const refused = await staff.post(`/lostfound/claims/${claim.body.id}/reunite`, {
        location_id: location.id,
        found_item_id: logged.body.id,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('verification_required');
      const item = await staff.get(`/lostfound/found-items/${logged.body.id}?location_id=${location.id}`);
      expect(item.body.status).toBe('stored');
    });

    it('disposes of an item only after the hold period, naming the signed-in user in the timeline', async () => {
      const old = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'scarf',
        description: 'Grey wool scarf',
        found_date: '2026-01-02',
      });
      expect(old.status).toBe(201);
      const fresh = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'scarf',
        description: 'Blue scarf',
      });
      const early = await staff.post(`/lostfound/found-items/${fresh.body.id}/disposal`, {
        location_id: location.id,
        outcome: 'donated',
      });
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('hold_period_not_over');
      const donated = await staff.post(`/lostfound/found-items/${old.body.id}/disposal`, {
        location_id: location.id,
        outcome: 'donated',
        note: 'Red Cross shop',
      });
      expect(donated.status).toBe(200);
      expect(donated.body.status).toBe('donated');
      expect(donated.body.timeline.at(-1)).toMatchObject({
        action: 'donated',
        staff_name: expect.stringMatching(/-staff@example\.com$/),
      });
    });

    it('answers bad input with a 400 envelope naming the field, and stores nothing', async () => {
      const before = await staff.get(`/lostfound/found-items?location_id=${location.id}`);
      const bad = await staff.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'umbrella',
        description: 'x'.repeat(5000),
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
      expect(bad.body.error.message).toMatch(/description/);
      const after = await staff.get(`/lostfound/found-items?location_id=${location.id}`);
      expect(after.body.total).toBe(before.body.total);
    });

    it('cannot reach keys, numbers, calls, money or people: 403 forbidden', async () => {
      for (const path of ['/keys', '/numbers', '/calls', '/balance', '/account', '/users']) {
        const answer = await staff.get(path);
        expect({ path, status: answer.status, code: answer.body.error?.code }).toEqual({
          path,
          status: 403,
          code: 'forbidden',
        });
      }
      const key = await staff.post('/keys', { name: 'sneaky' });
      expect(key.status).toBe(403);
      const number = await staff.post('/numbers', { country: 'US' });
      expect(number.status).toBe(403);
      const session = await staff.get('/session');
      expect(session.status).toBe(200);
      expect(session.body.user.role).toBe('staff');
    });

    it('lets a viewer read the desk but not change it', async () => {
      const viewer = await member(accountId, 'viewer');
      expect((await viewer.get(`/lostfound/found-items?location_id=${location.id}`)).status).toBe(200);
      const refused = await viewer.post('/lostfound/found-items', {
        location_id: location.id,
        category: 'umbrella',
        description: 'Black umbrella',
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/^A viewer user cannot log found items/);
    });
  });

  it("keeps one account's desk blind to another's locations, items and claims", async () => {
    const a = await accountWithLocation('Alpha');
    const b = await accountWithLocation('Bravo');
    const staffA = await member(a.accountId, 'staff');
    const ownerB = await member(b.accountId, 'owner');
    const item = await staffA.post('/lostfound/found-items', {
      location_id: a.location.id,
      category: 'umbrella',
      description: 'Green umbrella',
    });
    expect(item.status).toBe(201);
    const claim = await staffA.post('/lostfound/claims', {
      location_id: a.location.id,
      claimant_name: 'Ann',
      claimant_phone: '+14155550144',
      category: 'umbrella',
    });
    expect(claim.status).toBe(201);

    expect((await ownerB.get('/lostfound/locations')).body.data.map((l: { id: number }) => l.id)).toEqual([
      b.location.id,
    ]);
    expect((await ownerB.get(`/lostfound/found-items?location_id=${a.location.id}`)).status).toBe(404);
    expect((await ownerB.get(`/lostfound/found-items/${item.body.id}?location_id=${a.location.id}`)).status).toBe(404);
    expect((await ownerB.get(`/lostfound/found-items/${item.body.id}?location_id=${b.location.id}`)).status).toBe(404);
    expect((await ownerB.get(`/lostfound/claims/${claim.body.id}?location_id=${a.location.id}`)).status).toBe(404);
    const reunite = await ownerB.post(`/lostfound/claims/${claim.body.id}/reunite`, {
      location_id: a.location.id,
      found_item_id: item.body.id,
      verified: true,
    });
    expect(reunite.status).toBe(404);
    expect((await staffA.get(`/lostfound/claims/${claim.body.id}?location_id=${a.location.id}`)).body.status).toBe(
      'open',
    );
  });

  it("a number's lost-and-found line from its console page: owners set it, viewers and staff cannot, another account's is unknown", async () => {
    const a = await accountWithLocation('Quay');
    const b = await accountWithLocation('Pier');
    const [owner, viewer, staff, ownerB] = await Promise.all([
      member(a.accountId, 'owner'),
      member(a.accountId, 'viewer'),
      member(a.accountId, 'staff'),
      member(b.accountId, 'owner'),
    ]);
    expect((await admin.request('PUT', '/admin/provider/stock/312', { available: 3 })).status).toBe(200);
    const number = await owner.post('/numbers', { business_phone: '+13125550100', area_code: '312' });
    expect(number.status).toBe(201);
    const path = `/numbers/${number.body.id}/lostfound-line`;

    expect((await owner.get(path)).body).toEqual({ number_id: number.body.id, location_id: null });
    for (const body of [{}, { location_id: 'one' }, { location_id: 1.5 }]) {
      const refused = await owner.request('PUT', path, body);
      expect({ body, status: refused.status, code: refused.body.error.code }).toEqual({
        body,
        status: 400,
        code: 'invalid_request',
      });
    }
    const foreignLocation = await owner.request('PUT', path, { location_id: b.location.id });
    expect(foreignLocation).toMatchObject({ status: 404, body: { error: { code: 'location_not_found' } } });
    for (const refusedTo of [viewer, staff]) {
      const refused = await refusedTo.request('PUT', path, { location_id: a.location.id });
      expect(refused).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    }
    expect((await ownerB.request('PUT', path, { location_id: b.location.id })).status).toBe(404);
    expect((await ownerB.get(path)).status).toBe(404);
    expect((await owner.get(path)).body.location_id).toBeNull();

    const linked = await owner.request('PUT', path, { location_id: a.location.id });
    expect(linked).toMatchObject({ status: 200, body: { number_id: number.body.id, location_id: a.location.id } });
    expect((await viewer.get(path)).body.location_id).toBe(a.location.id);
    expect((await staff.get(path)).status).toBe(403);
    const unlinked = await owner.request('DELETE', path);
    expect(unlinked).toMatchObject({ status: 200, body: { location_id: null } });

    expect((await owner.request('DELETE', `/numbers/${number.body.id}`)).status).toBe(200);
    const released = await owner.request('PUT', path, { location_id: a.location.id });
    expect(released).toMatchObject({ status: 409, body: { error: { code: 'number_released' } } });
  });
});
