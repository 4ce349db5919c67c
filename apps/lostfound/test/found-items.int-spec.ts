import { LostfoundPrisma } from '../src/prisma/lostfound-prisma';
import { ClaimsRpc, FoundItemsRpc, type FoundItemView } from '@switchboard/contracts';
import { claimBody } from './factories/claim.factory';
import { foundItemBody } from './factories/found-item.factory';
import { startLostfound, type LostfoundUnderTest } from './support/lostfound-harness';

jest.setTimeout(60_000);

describe('lostfound: found items', () => {
  let lf: LostfoundUnderTest;
  beforeAll(async () => {
    lf = await startLostfound();
  });
  afterAll(() => lf?.stop());

  describe('logging an item', () => {
    it("stores every field given, as stored and from the api, and answers the spec's found item", async () => {
      const { accountId, locationId } = await lf.newLocation();
      const body = foundItemBody(locationId, { image_url: 'https://img.example/umbrella.jpg?size=large' });
      const item = await lf.send(FoundItemsRpc.log, body, accountId);
      expect(item).toEqual({
        id: expect.any(Number),
        location_id: locationId,
        category: 'umbrella',
        description: body.description,
        color: 'red',
        found_by: 'Maria',
        found_area: 'Gate B12',
        found_date: '2026-11-18',
        storage_ref: 'Bin 4',
        image_url: 'https://img.example/umbrella.jpg?size=large',
        status: 'stored',
        source: 'api',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    });

    it("fills the defaults: today in UTC, empty strings, the vocabulary's category read from the description", async () => {
      const { accountId, locationId } = await lf.newLocation();
      const today = new Date().toISOString().slice(0, 10);
      const item = await lf.send(
        FoundItemsRpc.log,
        { location_id: locationId, description: 'Navy blue backpack' },
        accountId,
      );
      expect(item).toMatchObject({
        category: 'bag',
        color: '',
        found_by: '',
        found_area: '',
        storage_ref: '',
        image_url: '',
        status: 'stored',
        source: 'api',
      });
      expect([today, new Date().toISOString().slice(0, 10)]).toContain(item.found_date);
      const other = await lf.send(
        FoundItemsRpc.log,
        { location_id: locationId, description: 'Something shiny' },
        accountId,
      );
      expect(other.category).toBe('other');
    });

    it('keeps the category the caller sent, normalised for case and spacing, not its vocabulary class', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const wallet = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { category: 'WALLET' }), accountId);
      const purse = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { category: 'Purse' }), accountId);
      const scarf = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { category: '  Wool   SCARF ' }),
        accountId,
      );
      expect([wallet.category, purse.category, scarf.category]).toEqual(['wallet', 'purse', 'wool scarf']);
      const stored = await lf.sql(
        'SELECT category, category_class, value_class FROM found_items WHERE id = ANY($1) ORDER BY id',
        [[wallet.id, purse.id, scarf.id]],
      );
      expect(stored).toEqual([
        { category: 'wallet', category_class: 'wallet', value_class: 'high' },
        { category: 'purse', category_class: 'handbag', value_class: 'high' },
        { category: 'wool scarf', category_class: 'wool scarf', value_class: 'low' },
      ]);
      const detail = await lf.send(FoundItemsRpc.get, { location_id: locationId, id: purse.id }, accountId);
      expect(detail.category).toBe('purse');
    });

    it('stores photo_urls as more photos after image_url, in order, and shows them on the item', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const photoUrls = ['https://img.example/side.jpg', 'https://img.example/back.jpg'];
      const item = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { image_url: 'https://img.example/front.jpg', photo_urls: photoUrls }),
        accountId,
      );
      expect(item).not.toHaveProperty('photo_urls');
      const detail = await lf.send(FoundItemsRpc.get, { location_id: locationId, id: item.id }, accountId);
      expect(detail.photos).toEqual(['https://img.example/front.jpg', ...photoUrls]);

      const withoutPrimary = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { photo_urls: ['https://img.example/only.jpg'] }),
        accountId,
      );
      const second = await lf.send(FoundItemsRpc.get, { location_id: locationId, id: withoutPrimary.id }, accountId);
      expect(second.photos).toEqual(['https://img.example/only.jpg']);
    });

    it.each([
      ['more than 10', Array.from({ length: 11 }, (_, i) => `https://img.example/${i}.jpg`)],
      ['a URL longer than image_url takes', [`https://img.example/${'x'.repeat(5000)}.jpg`]],
      ['a non-string', [42]],
    ])('refuses photo_urls with %s (400 invalid_request)', async (_, photoUrls) => {
      const { accountId, locationId } = await lf.newLocation();
      const body = { ...foundItemBody(locationId), photo_urls: photoUrls as string[] };
      expect(await lf.errorOf(FoundItemsRpc.log, body, accountId)).toBe('invalid_request');
    });

    // The spec stores image_url "as given": an accepted URL comes back byte for byte, never normalised. Only
    // https:/http: URLs are accepted (issue 47, ADR 0057): anything else would be rendered as a link on the desk.
    it('keeps an accepted image_url exactly as given, without normalising it', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const given = 'HTTPS://IMG.example:443/Bin4/photo%201.PNG?size=Large#Front';
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { image_url: given }), accountId);
      expect(item.image_url).toBe(given);
    });

    it('refuses an image_url that is not an http(s) URL, such as a bare path (400 invalid_request)', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const body = foundItemBody(locationId, { image_url: '  bin4/photo 1.png ' });
      expect(await lf.errorOf(FoundItemsRpc.log, body, accountId)).toBe('invalid_request');
    });
  });

  describe('an item whose text holds no searchable word', () => {
    // "it" is a stop word and an emoji is no word at all: neither gives the candidate search a word to rank by,
    // so matching must go by category alone (it used to end in `ORDER BY 0` and a 500).
    it.each([
      ['only a category and a stop word', 'it'],
      ['only a category and an emoji', '\u{1F302}'],
    ])('is logged and matched to open claims by category (%s)', async (_, description) => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { description: 'umbrella', color: '', lost_area: '' }),
        accountId,
      );
      const item = await lf.send(
        FoundItemsRpc.log,
        { location_id: locationId, category: 'umbrella', description, found_date: '2026-11-18' },
        accountId,
      );
      expect(item).toMatchObject({ category: 'umbrella', description, status: 'stored' });
      const detail = await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId);
      expect(detail.has_match).toBe(true);
      expect(detail.matches?.map((match) => match.found_item_id)).toEqual([item.id]);
    });

    it.each([['it'], ['\u{1F302}'], ['it \u{1F302} !']])(
      'lists and searches with q=%j: the q filters nothing',
      async (q) => {
        const { accountId, locationId } = await lf.newLocation();
        const first = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { description: 'it' }), accountId);
        const second = await lf.send(
          FoundItemsRpc.log,
          foundItemBody(locationId, { description: '\u{1F302}' }),
          accountId,
        );
        const page = await lf.send(FoundItemsRpc.list, { location_id: locationId, q }, accountId);
        expect(page).toMatchObject({ total: 2, pages: 1 });
        expect(page.data.map((found) => found.id)).toEqual([second.id, first.id]);
        const byCategory = await lf.send(
          FoundItemsRpc.list,
          { location_id: locationId, q, category: 'umbrella' },
          accountId,
        );
        expect(byCategory.total).toBe(2);
      },
    );
  });

  describe('the item detail', () => {
    it('adds photos (the image first) and the custody timeline, starting with logged by API', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const item = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { image_url: 'https://img.example/1.jpg' }),
        accountId,
      );
      const detail = await lf.send(FoundItemsRpc.get, { location_id: locationId, id: item.id }, accountId);
      expect(detail).toEqual({
        ...item,
        // Added field (docs/adr/0079): found_date 2026-11-18 + the default 60 days.
        hold_until: '2027-01-17',
        photos: ['https://img.example/1.jpg'],
        timeline: [
          {
            created_at: expect.any(String),
            action: 'logged',
            staff_name: 'API',
            note: expect.stringContaining('Bin 4'),
          },
        ],
      });
    });

    it('has no photos when no image was given', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      expect((await lf.send(FoundItemsRpc.get, { location_id: locationId, id: item.id }, accountId)).photos).toEqual(
        [],
      );
    });

    it('answers 404 not_found for an unknown id, or an item of another location of the same account', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const elsewhere = await lf.newLocation({ accountId });
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(elsewhere.locationId), accountId);
      expect(await lf.errorOf(FoundItemsRpc.get, { location_id: locationId, id: item.id }, accountId)).toBe(
        'not_found',
      );
      expect(await lf.errorOf(FoundItemsRpc.get, { location_id: locationId, id: 987_654 }, accountId)).toBe(
        'not_found',
      );
      expect(await lf.errorOf(FoundItemsRpc.get, { location_id: locationId, id: 2 ** 40 }, accountId)).toBe(
        'not_found',
      );
    });
  });

  describe('the list', () => {
    let accountId: string;
    let locationId: number;
    const logged: Record<string, FoundItemView> = {};

    beforeAll(async () => {
      ({ accountId, locationId } = await lf.newLocation());
      const items = {
        redUmbrella: foundItemBody(locationId, {
          description: 'Red umbrella with a wooden handle',
          color: 'red',
          found_area: 'Gate B12',
          found_date: '2026-11-01',
        }),
        blueUmbrella: foundItemBody(locationId, {
          description: 'Blue folding umbrella',
          color: 'blue',
          found_area: 'gate  b12',
          found_date: '2026-11-05',
        }),
        wallet: foundItemBody(locationId, {
          category: 'wallet',
          description: 'Brown leather wallet',
          color: 'brown',
          found_area: 'Food court',
          found_date: '2026-11-10',
        }),
        purse: foundItemBody(locationId, {
          category: 'purse',
          description: 'Small beaded clutch',
          color: 'gold',
          found_area: 'Platform 2',
          found_date: '2026-11-15',
        }),
        scarf: foundItemBody(locationId, {
          category: 'Scarf',
          description: 'Green wool scarf with tassels',
          color: 'green',
          found_area: 'Platform 2',
          found_date: '2026-11-20',
        }),
        hat: foundItemBody(locationId, {
          category: 'hat',
          description: 'Grey knitted beanie',
          color: 'grey',
          found_area: 'Lobby',
          found_date: '2026-11-21',
        }),
      };
      for (const [name, body] of Object.entries(items))
        logged[name] = await lf.send(FoundItemsRpc.log, body, accountId);
      // The scarf goes back to its owner, so one item is `returned`.
      const claim = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, {
          category: 'scarf',
          description: 'green scarf',
          color: 'green',
          lost_date: '2026-11-19',
        }),
        accountId,
      );
      await lf.send(
        ClaimsRpc.reunite,
        { location_id: locationId, id: claim.id, found_item_id: logged.scarf.id },
        accountId,
      );
    });

    const ids = (page: { data: FoundItemView[] }) => page.data.map((item) => item.id);
    const list = (query: Record<string, unknown>) =>
      lf.send(FoundItemsRpc.list, { location_id: locationId, ...query }, accountId);

    it("lists the location's items newest first in pages of 25 with total, page, pages and per", async () => {
      const page = await list({});
      expect(page).toMatchObject({ total: 6, page: 1, pages: 1, per: 25 });
      expect(ids(page)).toEqual(
        ['hat', 'scarf', 'purse', 'wallet', 'blueUmbrella', 'redUmbrella'].map((name) => logged[name].id),
      );
    });

    it('filters by status', async () => {
      expect(ids(await list({ status: 'returned' }))).toEqual([logged.scarf.id]);
      expect((await list({ status: 'stored' })).total).toBe(5);
    });

    it('filters on the category the caller sent, case-insensitively: a scarf, not the hat of the same class', async () => {
      expect(ids(await list({ category: 'scarf' }))).toEqual([logged.scarf.id]);
      expect(ids(await list({ category: ' SCARF ' }))).toEqual([logged.scarf.id]);
      expect(ids(await list({ category: 'Hat' }))).toEqual([logged.hat.id]);
      expect(ids(await list({ category: 'UMBRELLA' }))).toEqual([logged.blueUmbrella.id, logged.redUmbrella.id]);
      expect(ids(await list({ category: 'Purse' }))).toEqual([logged.purse.id]);
      expect(ids(await list({ category: 'handbag' }))).toEqual([]);
      expect(ids(await list({ category: 'clothing' }))).toEqual([]);
    });

    it('still finds a whole vocabulary class with q (the class is searched with the category)', async () => {
      expect(ids(await list({ q: 'clothing' }))).toEqual(expect.arrayContaining([logged.scarf.id, logged.hat.id]));
      expect((await list({ q: 'clothing' })).total).toBe(2);
      expect(ids(await list({ q: 'handbag' }))).toEqual([logged.purse.id]);
    });

    it('filters by area regardless of case and spacing', async () => {
      expect(ids(await list({ area: 'GATE B12' }))).toEqual([logged.blueUmbrella.id, logged.redUmbrella.id]);
      expect(ids(await list({ area: 'platform 2' }))).toEqual([logged.scarf.id, logged.purse.id]);
      expect(ids(await list({ area: 'lobby' }))).toEqual([logged.hat.id]);
    });

    it('filters found_date from and to, both days included', async () => {
      expect(ids(await list({ from: '2026-11-05', to: '2026-11-15' }))).toEqual([
        logged.purse.id,
        logged.wallet.id,
        logged.blueUmbrella.id,
      ]);
      expect(ids(await list({ from: '2026-11-20' }))).toEqual([logged.hat.id, logged.scarf.id]);
      expect(ids(await list({ to: '2026-11-01' }))).toEqual([logged.redUmbrella.id]);
    });

    it('refuses from after to with 400 invalid_request', async () => {
      expect(
        await lf.errorOf(
          FoundItemsRpc.list,
          { location_id: locationId, from: '2026-11-10', to: '2026-11-09' },
          accountId,
        ),
      ).toBe('invalid_request');
    });

    it('searches q over description, color, area and category, stemmed and by prefix', async () => {
      expect(ids(await list({ q: 'umbrellas' }))).toEqual(
        expect.arrayContaining([logged.blueUmbrella.id, logged.redUmbrella.id]),
      );
      expect((await list({ q: 'umbrellas' })).total).toBe(2);
      expect(ids(await list({ q: 'red umbr' }))).toEqual([logged.redUmbrella.id]);
      expect(ids(await list({ q: 'leather' }))).toEqual([logged.wallet.id]);
      expect(ids(await list({ q: 'gold' }))).toEqual([logged.purse.id]);
      expect(ids(await list({ q: 'food court' }))).toEqual([logged.wallet.id]);
      expect(ids(await list({ q: 'purse' }))).toEqual([logged.purse.id]);
      expect(ids(await list({ q: 'tassel' }))).toEqual([logged.scarf.id]);
      expect((await list({ q: 'bicycle' })).total).toBe(0);
    });

    it('treats what the caller types as words, never as query syntax', async () => {
      expect((await list({ q: "wallet' | !x & (" })).total).toBe(1);
      expect((await list({ q: '!!!' })).total).toBe(6);
    });

    it('combines filters', async () => {
      expect(ids(await list({ q: 'umbrella', area: 'gate b12', from: '2026-11-03', status: 'stored' }))).toEqual([
        logged.blueUmbrella.id,
      ]);
    });
  });

  describe('paging', () => {
    it('splits 30 items into a page of 25 and a page of 5, and answers an empty page past the last', async () => {
      const { accountId, locationId } = await lf.newLocation();
      for (let n = 0; n < 30; n += 1) {
        await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { description: `Umbrella number ${n}` }), accountId);
      }
      const first = await lf.send(FoundItemsRpc.list, { location_id: locationId }, accountId);
      const second = await lf.send(FoundItemsRpc.list, { location_id: locationId, page: 2 }, accountId);
      const beyond = await lf.send(FoundItemsRpc.list, { location_id: locationId, page: 3 }, accountId);
      expect([first.data.length, second.data.length, beyond.data.length]).toEqual([25, 5, 0]);
      expect(first).toMatchObject({ total: 30, page: 1, pages: 2, per: 25 });
      expect(second).toMatchObject({ total: 30, page: 2, pages: 2, per: 25 });
      expect(beyond).toMatchObject({ total: 30, page: 3, pages: 2, per: 25 });
      const all = [...first.data, ...second.data].map((item) => item.id);
      expect(new Set(all).size).toBe(30);
    });

    it('counts up to 1,000 and says so beyond; a common word is ranked among its 1,000 most recent matches', async () => {
      const { accountId, locationId } = await lf.newLocation();
      // 1,100 black umbrellas and 5 red scarves, inserted straight into the table (the generated search column and
      // its index are PostgreSQL's, as when items are logged).
      await lf.app.get(LostfoundPrisma).$executeRaw`
        INSERT INTO found_items (location_id, category, category_class, value_class, description, color, found_date)
        SELECT ${locationId}, 'umbrella', 'umbrella', 'low', 'Black umbrella number ' || n, 'black', DATE '2026-11-01'
          FROM generate_series(1, 1100) AS n`;
      await lf.app.get(LostfoundPrisma).$executeRaw`
        INSERT INTO found_items (location_id, category, category_class, value_class, description, color, found_date)
        SELECT ${locationId}, 'scarf', 'clothing', 'low', 'Red wool scarf ' || n, 'red', DATE '2026-11-01'
          FROM generate_series(1, 5) AS n`;
      const all = await lf.send(FoundItemsRpc.list, { location_id: locationId }, accountId);
      expect(all).toMatchObject({ total: 1000, total_exact: false, pages: 40 });
      const black = await lf.send(FoundItemsRpc.list, { location_id: locationId, q: 'black' }, accountId);
      expect(black).toMatchObject({ total: 1000, total_exact: false, pages: 40 });
      // Ranked among the most recent 1,000: the oldest 100 are past the bound.
      const last = await lf.send(FoundItemsRpc.list, { location_id: locationId, q: 'black', page: 40 }, accountId);
      expect(last.data).toHaveLength(25);
      const ids = [...black.data, ...last.data].map((item) => item.id);
      const oldest = Math.min(...ids);
      const newest = Math.max(...all.data.map((item) => item.id));
      expect(newest - oldest).toBeLessThan(1005);
      const scarves = await lf.send(FoundItemsRpc.list, { location_id: locationId, q: 'scarf' }, accountId);
      expect(scarves).toMatchObject({ total: 5, total_exact: true, pages: 1 });
      const none = await lf.send(FoundItemsRpc.list, { location_id: locationId, q: 'samsonite' }, accountId);
      expect(none).toMatchObject({ data: [], total: 0, total_exact: true, pages: 0 });
    });

    it('answers an empty location with no pages', async () => {
      const { accountId, locationId } = await lf.newLocation();
      expect(await lf.send(FoundItemsRpc.list, { location_id: locationId }, accountId)).toEqual({
        data: [],
        total: 0,
        total_exact: true,
        page: 1,
        pages: 0,
        per: 25,
      });
    });
  });
});
