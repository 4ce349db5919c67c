import { ClaimsRpc, FoundItemsRpc, ServiceError } from '@switchboard/contracts';
import { claimBody, walletClaimBody } from './factories/claim.factory';
import { foundItemBody, foundWalletBody } from './factories/found-item.factory';
import { eventually, startLostfound, type LostfoundUnderTest } from './support/lostfound-harness';

jest.setTimeout(60_000);

describe('lostfound: reunite', () => {
  let lf: LostfoundUnderTest;
  beforeAll(async () => {
    lf = await startLostfound();
  });
  afterAll(() => lf?.stop());

  async function setup(kind: 'low' | 'high' = 'low') {
    const { accountId, locationId } = await lf.newLocation();
    const item = await lf.send(
      FoundItemsRpc.log,
      kind === 'high' ? foundWalletBody(locationId) : foundItemBody(locationId),
      accountId,
    );
    const claim = await lf.send(
      ClaimsRpc.file,
      kind === 'high' ? walletClaimBody(locationId) : claimBody(locationId),
      accountId,
    );
    const reunite = (body: { id?: number; found_item_id?: number; verified?: boolean } = {}) =>
      lf.send(ClaimsRpc.reunite, { location_id: locationId, id: claim.id, found_item_id: item.id, ...body }, accountId);
    const errorOf = (body: { id?: number; found_item_id?: number; verified?: boolean } = {}) =>
      lf.errorOf(
        ClaimsRpc.reunite,
        { location_id: locationId, id: claim.id, found_item_id: item.id, ...body },
        accountId,
      );
    const state = async () => ({
      item: (await lf.send(FoundItemsRpc.get, { location_id: locationId, id: item.id }, accountId)).status,
      claim: (await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId)).status,
    });
    return { accountId, locationId, item, claim, reunite, errorOf, state };
  }

  it('releases a low-value item: item returned, claim reunited, the release on both timelines', async () => {
    const s = await setup();
    expect(await s.reunite()).toEqual({
      reunited: true,
      claim_id: s.claim.id,
      found_item_id: s.item.id,
      verified: false,
    });
    const item = await lf.send(FoundItemsRpc.get, { location_id: s.locationId, id: s.item.id }, s.accountId);
    const claim = await lf.send(ClaimsRpc.get, { location_id: s.locationId, id: s.claim.id }, s.accountId);
    expect(item.status).toBe('returned');
    expect(claim.status).toBe('reunited');
    expect(item.timeline.map((entry) => [entry.action, entry.staff_name])).toEqual([
      ['logged', 'API'],
      ['released', 'API'],
    ]);
    expect(item.timeline[1].note).toContain(`#${s.claim.id}`);
    expect(claim.timeline.map((entry) => entry.action)).toEqual(['filed', 'reunited']);
  });

  it('refuses a high-value release without verified: true with 409 verification_required, changing nothing', async () => {
    const s = await setup('high');
    expect(await s.errorOf()).toBe('verification_required');
    expect(await s.errorOf({ verified: false })).toBe('verification_required');
    expect(await s.state()).toEqual({ item: 'stored', claim: 'open' });
    const [{ entries, events }] = await lf.sql<{ entries: number; events: number }>(
      `SELECT (SELECT count(*)::int FROM timeline_entries WHERE found_item_id = $1) AS entries,
              (SELECT count(*)::int FROM outbox_events WHERE type = 'lostfound.reunited'
                  AND (payload->'data'->>'claim_id')::int = $2) AS events`,
      [s.item.id, s.claim.id],
    );
    expect(entries).toBe(1);
    expect(events).toBe(0);
    expect(await s.reunite({ verified: true })).toMatchObject({ reunited: true, verified: true });
    expect(await s.state()).toEqual({ item: 'returned', claim: 'reunited' });
  });

  it('asks for verification when the item is high-value even if the claim did not say so', async () => {
    const { accountId, locationId } = await lf.newLocation();
    const item = await lf.send(FoundItemsRpc.log, foundWalletBody(locationId), accountId);
    const claim = await lf.send(
      ClaimsRpc.file,
      claimBody(locationId, { category: undefined, description: 'left something at the food court' }),
      accountId,
    );
    expect(
      await lf.errorOf(ClaimsRpc.reunite, { location_id: locationId, id: claim.id, found_item_id: item.id }, accountId),
    ).toBe('verification_required');
  });

  it('answers 409 claim_not_open for a claim already reunited', async () => {
    const s = await setup();
    await s.reunite();
    const other = await lf.send(FoundItemsRpc.log, foundItemBody(s.locationId), s.accountId);
    expect(await s.errorOf({ found_item_id: other.id })).toBe('claim_not_open');
  });

  it('answers 409 item_not_available for an item no longer in storage', async () => {
    const s = await setup();
    await s.reunite();
    const second = await lf.send(ClaimsRpc.file, claimBody(s.locationId), s.accountId);
    expect(await s.errorOf({ id: second.id })).toBe('item_not_available');
  });

  it('answers 404 not_found for an unknown claim or item, or one of another location', async () => {
    const s = await setup();
    const elsewhere = await lf.newLocation({ accountId: s.accountId });
    const foreignItem = await lf.send(FoundItemsRpc.log, foundItemBody(elsewhere.locationId), s.accountId);
    expect(await s.errorOf({ id: 777_777 })).toBe('not_found');
    expect(await s.errorOf({ found_item_id: 777_777 })).toBe('not_found');
    expect(await s.errorOf({ found_item_id: foreignItem.id })).toBe('not_found');
    expect(await s.errorOf({ id: 2 ** 33 })).toBe('not_found');
  });

  it("checks in the spec's order: not_found, then verification_required, then claim_not_open, then item_not_available", async () => {
    const s = await setup('high');
    await s.reunite({ verified: true });
    // The claim is reunited and the item returned: an unknown item still says not_found first...
    expect(await s.errorOf({ found_item_id: 888_888 })).toBe('not_found');
    // ...a missing verification comes before the closed claim...
    expect(await s.errorOf()).toBe('verification_required');
    // ...the closed claim before the item that is gone...
    expect(await s.errorOf({ verified: true })).toBe('claim_not_open');
    // ...and the item that is gone last.
    const open = await lf.send(ClaimsRpc.file, walletClaimBody(s.locationId), s.accountId);
    expect(await s.errorOf({ id: open.id })).toBe('verification_required');
    expect(await s.errorOf({ id: open.id, verified: true })).toBe('item_not_available');
  });

  it('lets only one of many simultaneous reunites of one item win; the others get item_not_available', async () => {
    const { accountId, locationId } = await lf.newLocation();
    const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => lf.send(ClaimsRpc.file, claimBody(locationId), accountId)),
    );
    const results = await Promise.allSettled(
      claims.map((claim) =>
        lf.send(ClaimsRpc.reunite, { location_id: locationId, id: claim.id, found_item_id: item.id }, accountId),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.flatMap((result) =>
      result.status === 'rejected' ? [(result.reason as ServiceError).code] : [],
    );
    expect(won).toHaveLength(1);
    expect(lost).toEqual(Array(7).fill('item_not_available'));
    const [{ reunited, released }] = await lf.sql<{ reunited: number; released: number }>(
      `SELECT (SELECT count(*)::int FROM claims WHERE location_id = $1 AND status = 'reunited') AS reunited,
              (SELECT count(*)::int FROM timeline_entries WHERE found_item_id = $2 AND action = 'released') AS released`,
      [locationId, item.id],
    );
    expect({ reunited, released }).toEqual({ reunited: 1, released: 1 });
  });

  it('lets only one of two simultaneous reunites of one claim with two items win', async () => {
    const { accountId, locationId } = await lf.newLocation();
    const items = await Promise.all([0, 1].map(() => lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId)));
    const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
    const results = await Promise.allSettled(
      items.map((item) =>
        lf.send(ClaimsRpc.reunite, { location_id: locationId, id: claim.id, found_item_id: item.id }, accountId),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.flatMap((result) => (result.status === 'rejected' ? [(result.reason as ServiceError).code] : [])),
    ).toEqual(['claim_not_open']);
    const [{ stored }] = await lf.sql<{ stored: number }>(
      `SELECT count(*)::int AS stored FROM found_items WHERE location_id = $1 AND status = 'stored'`,
      [locationId],
    );
    expect(stored).toBe(1);
  });

  it('sends lostfound.reunited with ids, category and verified, and nothing about the claimant', async () => {
    const s = await setup('high');
    await s.reunite({ verified: true });
    const event = await eventually(async () =>
      (await lf.events()).find((e) => e.type === 'lostfound.reunited' && e.data.claim_id === s.claim.id),
    );
    expect(event.data).toEqual({
      account_id: s.accountId,
      location_id: s.locationId,
      claim_id: s.claim.id,
      found_item_id: s.item.id,
      category: 'wallet',
      verified: true,
      reunited_at: expect.any(String),
    });
  });
});
