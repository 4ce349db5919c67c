import { ClaimsRpc, FoundItemsRpc, LocationsRpc } from '@switchboard/contracts';
import { newAccountId } from './factories/account.factory';
import { claimBody } from './factories/claim.factory';
import { foundItemBody } from './factories/found-item.factory';
import { startLostfound, type LostfoundUnderTest } from './support/lostfound-harness';

jest.setTimeout(60_000);

describe('lostfound: locations and the location check', () => {
  let lf: LostfoundUnderTest;
  beforeAll(async () => {
    lf = await startLostfound();
  });
  afterAll(() => lf?.stop());

  it('creates a location with lost-and-found enabled by default and an integer id', async () => {
    const accountId = newAccountId();
    const first = await lf.send(LocationsRpc.create, { account_id: accountId, name: ' Union Station ' });
    const second = await lf.send(LocationsRpc.create, {
      account_id: accountId,
      name: 'Depot',
      lostfound_enabled: false,
    });
    expect(first).toEqual({
      id: expect.any(Number),
      name: 'Union Station',
      lostfound_enabled: true,
      sms_countries: ['US', 'CA'],
      hold_days: 60,
      public_slug: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(Number.isInteger(first.id)).toBe(true);
    expect(second).toMatchObject({ name: 'Depot', lostfound_enabled: false });
    expect(second.id).toBeGreaterThan(first.id);
  });

  describe('every lost-and-found request answers 404 location_not_found', () => {
    let owner: { accountId: string; locationId: number };
    let claimId: number;
    let itemId: number;
    const cases: [string, (locationId: number, accountId: string) => Promise<string>][] = [
      [
        'log a found item',
        (locationId, accountId) => lf.errorOf(FoundItemsRpc.log, foundItemBody(locationId), accountId),
      ],
      [
        'list found items',
        (locationId, accountId) => lf.errorOf(FoundItemsRpc.list, { location_id: locationId }, accountId),
      ],
      [
        'read a found item',
        (locationId, accountId) => lf.errorOf(FoundItemsRpc.get, { location_id: locationId, id: itemId }, accountId),
      ],
      ['file a claim', (locationId, accountId) => lf.errorOf(ClaimsRpc.file, claimBody(locationId), accountId)],
      ['list claims', (locationId, accountId) => lf.errorOf(ClaimsRpc.list, { location_id: locationId }, accountId)],
      [
        'read a claim',
        (locationId, accountId) => lf.errorOf(ClaimsRpc.get, { location_id: locationId, id: claimId }, accountId),
      ],
      [
        'reunite',
        (locationId, accountId) =>
          lf.errorOf(
            ClaimsRpc.reunite,
            { location_id: locationId, id: claimId, found_item_id: itemId, verified: true },
            accountId,
          ),
      ],
    ];

    beforeAll(async () => {
      owner = await lf.newLocation();
      itemId = (await lf.send(FoundItemsRpc.log, foundItemBody(owner.locationId), owner.accountId)).id;
      claimId = (await lf.send(ClaimsRpc.file, claimBody(owner.locationId), owner.accountId)).id;
    });

    it.each(cases)("to %s at another account's location", async (_, attempt) => {
      expect(await attempt(owner.locationId, newAccountId())).toBe('location_not_found');
    });

    it.each(cases)('to %s at a location without lost-and-found', async (_, attempt) => {
      const disabled = await lf.newLocation({ accountId: owner.accountId, lostfound_enabled: false });
      expect(await attempt(disabled.locationId, owner.accountId)).toBe('location_not_found');
    });

    it.each(cases)(
      'to %s at a location that does not exist (or cannot: 0, negative, past the id range)',
      async (_, attempt) => {
        for (const locationId of [999_999, 0, -4, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
          expect(await attempt(locationId, owner.accountId)).toBe('location_not_found');
        }
      },
    );

    it('and leaves nothing behind when it refuses', async () => {
      const [{ count }] = await lf.sql<{ count: number }>('SELECT count(*)::int AS count FROM found_items');
      const [{ claims }] = await lf.sql<{ claims: number }>('SELECT count(*)::int AS claims FROM claims');
      expect({ count, claims }).toEqual({ count: 1, claims: 1 });
    });
  });

  it('refuses a request that carries no account with 401 unauthorized', async () => {
    const { locationId } = await lf.newLocation();
    expect(await lf.errorOf(FoundItemsRpc.list, { location_id: locationId })).toBe('unauthorized');
  });

  it('refuses a location_id that is not an integer with 400 invalid_request', async () => {
    const { accountId } = await lf.newLocation();
    const code = await lf.errorOf(
      FoundItemsRpc.log,
      { ...foundItemBody(1), location_id: '1' as unknown as number },
      accountId,
    );
    expect(code).toBe('invalid_request');
  });
});
