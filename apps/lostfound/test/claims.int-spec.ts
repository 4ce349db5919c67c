import { ClaimsRpc, FoundItemsRpc } from '@switchboard/contracts';
import { compileSql } from '@switchboard/persistence';
import {
  MATCH_TEXT_BYTES,
  MAX_ELIGIBLE_ITEMS,
  claimCandidatesStatement,
  type ClaimToMatch,
} from '../src/found-items/found-items.repository';
import { claimBody, walletClaimBody } from './factories/claim.factory';
import { foundItemBody, foundWalletBody } from './factories/found-item.factory';
import { startLostfound, type LostfoundUnderTest } from './support/lostfound-harness';

jest.setTimeout(60_000);

describe('lostfound: claims', () => {
  let lf: LostfoundUnderTest;
  beforeAll(async () => {
    lf = await startLostfound();
  });
  afterAll(() => lf?.stop());

  describe('filing a claim', () => {
    it("answers the spec's claim: open, from the api, phone in E.164, has_match false when nothing matches", async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { claimant_phone: '(415) 867-5309' }),
        accountId,
      );
      expect(claim).toEqual({
        id: expect.any(Number),
        location_id: locationId,
        claimant_name: 'Jane Smith',
        claimant_phone: '+14158675309',
        category: 'umbrella',
        description: 'Red umbrella, wooden handle',
        color: 'red',
        lost_area: 'Gate B12',
        lost_date: '2026-11-17',
        image_url: '',
        status: 'open',
        source: 'api',
        created_at: expect.any(String),
        has_match: false,
        matches: [],
      });
    });

    it.each(['child', 'Person', 'MEDICATION', 'kid', 'missing person', 'insulin'])(
      'refuses the urgent category %j with 422 urgent_category and stores, queues and sends nothing',
      async (category) => {
        const { accountId, locationId } = await lf.newLocation();
        const before = await lf.sql<{ claims: number; outbox: number }>(
          'SELECT (SELECT count(*)::int FROM claims) AS claims, (SELECT count(*)::int FROM outbox_events) AS outbox',
        );
        expect(await lf.errorOf(ClaimsRpc.file, claimBody(locationId, { category }), accountId)).toBe(
          'urgent_category',
        );
        const after = await lf.sql(
          'SELECT (SELECT count(*)::int FROM claims) AS claims, (SELECT count(*)::int FROM outbox_events) AS outbox',
        );
        expect(after).toEqual(before);
      },
    );

    it("lists a low-value claim's candidate items in matches, best first, and only those that match", async () => {
      const { accountId, locationId } = await lf.newLocation();
      const red = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const blue = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { description: 'Blue umbrella', color: 'blue' }),
        accountId,
      );
      const plain = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { description: 'Umbrella', color: '', found_area: '' }),
        accountId,
      );
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      expect(claim.has_match).toBe(true);
      expect(claim).not.toHaveProperty('verify_required');
      expect(claim.matches).toEqual([
        {
          found_item_id: red.id,
          description: red.description,
          color: 'red',
          found_area: 'Gate B12',
          found_date: '2026-11-18',
        },
        { found_item_id: plain.id, description: 'Umbrella', color: '', found_area: '', found_date: '2026-11-18' },
      ]);
      expect(claim.matches!.map((match) => match.found_item_id)).not.toContain(blue.id);
    });

    it('keeps the category the caller sent and matches it by its class: a lost scarf is put beside a found hat', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const hat = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { category: 'Hat', description: 'Green knitted hat', color: 'green' }),
        accountId,
      );
      const claim = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { category: 'SCARF', description: 'green knitted scarf', color: 'green' }),
        accountId,
      );
      expect(claim.category).toBe('scarf');
      expect(claim.matches?.map((match) => match.found_item_id)).toEqual([hat.id]);
      const stored = await lf.sql('SELECT category, category_class, value_class FROM claims WHERE id = $1', [claim.id]);
      expect(stored).toEqual([{ category: 'scarf', category_class: 'clothing', value_class: 'low' }]);
      expect((await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId)).category).toBe(
        'scarf',
      );
    });

    it('matches "Umbrella" and "umbrella" alike', async () => {
      const { accountId, locationId } = await lf.newLocation();
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { category: 'UMBRELLA' }), accountId);
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId, { category: 'Umbrella' }), accountId);
      expect(claim.matches).toHaveLength(1);
    });

    it('gives a high-value claim only has_match and verify_required, never any detail of the item', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const wallet = await lf.send(FoundItemsRpc.log, foundWalletBody(locationId), accountId);
      const claim = await lf.send(ClaimsRpc.file, walletClaimBody(locationId), accountId);
      expect(claim).toMatchObject({ category: 'wallet', has_match: true, verify_required: true });
      expect(claim).not.toHaveProperty('matches');
      const detail = await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId);
      const list = await lf.send(ClaimsRpc.list, { location_id: locationId }, accountId);
      for (const answer of [claim, detail, list]) {
        const json = JSON.stringify(answer);
        for (const secret of ['initials J.S.', 'Safe 1', String(wallet.found_date), `"found_item_id"`])
          expect(json).not.toContain(secret);
      }
      expect(detail).toMatchObject({ has_match: true, verify_required: true });
      expect(detail).not.toHaveProperty('matches');
    });

    it('says verify_required on a high-value claim with no match, and has_match false', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, walletClaimBody(locationId, { category: 'WALLET' }), accountId);
      expect(claim).toMatchObject({ has_match: false, verify_required: true });
      expect(claim).not.toHaveProperty('matches');
    });

    it('never lists a high-value item to a low-value claim, though it counts for has_match', async () => {
      const { accountId, locationId } = await lf.newLocation();
      await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, {
          category: 'other',
          description: 'Black leather wallet, initials J.S.',
          color: 'black',
        }),
        accountId,
      );
      const claim = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, {
          category: 'other',
          description: 'black leather thing with initials',
          color: 'black',
          lost_area: 'Gate B12',
        }),
        accountId,
      );
      expect(claim).toMatchObject({ has_match: true, matches: [] });
    });

    it('scores the items found nearest after the loss when more are eligible than it scores (docs/adr/0053)', async () => {
      const { accountId, locationId } = await lf.newLocation();
      // Logged first, found the day after the loss: the item the claimant lost.
      const lost = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { found_date: '2026-11-18' }), accountId);
      // Then more umbrellas than matching scores, all logged later and found weeks after the loss (a busy desk).
      await lf.sql(
        `INSERT INTO found_items (location_id, category, category_class, value_class, description, color, found_area,
           area_key, found_date, status, source)
         SELECT $1, 'umbrella', 'umbrella', 'low', 'Black umbrella', 'black', 'Lobby', 'lobby',
           DATE '2026-12-20' - (n % 20), 'stored', 'api'
         FROM generate_series(1, $2::int) AS n`,
        [locationId, MAX_ELIGIBLE_ITEMS + 10],
      );
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId, { lost_date: '2026-11-17' }), accountId);
      expect(claim.matches?.map((match) => match.found_item_id)).toEqual([lost.id]);
    });
  });

  describe("a claim's candidates, read from the index (docs/adr/0053)", () => {
    /** Distinct two-letter words, the text whose search vector is largest for its length (about 3.3 bytes a byte). */
    const filler = (bytes: number) => {
      const words: string[] = [];
      for (let n = 0; words.join(' ').length < bytes; n++)
        words.push(String.fromCharCode(98 + (Math.floor(n / 24) % 24), 98 + (n % 24)));
      return words.join(' ').slice(0, bytes).trimEnd().padEnd(bytes, 'x');
    };

    it('matches items whose texts fit the index entry and items whose texts do not', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const fixed = { category: 'umbrella', color: 'red', found_area: 'Gate B12' };
      const lead = 'Red umbrella wooden handle ';
      const fixedBytes = fixed.category.length + fixed.color.length + fixed.found_area.length;
      // Exactly at the bound: its entry carries the largest search vector such a text makes, and must fit.
      const atBound = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, {
          ...fixed,
          description: lead + filler(MATCH_TEXT_BYTES - fixedBytes - lead.length),
        }),
        accountId,
      );
      // Over it: read through the heap instead.
      const long = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { ...fixed, description: lead + filler(1_200) }),
        accountId,
      );
      const short = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, fixed), accountId);
      const sizes = await lf.sql<{ id: number; bytes: number }>(
        `SELECT id, octet_length(category) + octet_length(description) + octet_length(color) + octet_length(found_area)
           AS bytes FROM found_items WHERE location_id = $1 ORDER BY id`,
        [locationId],
      );
      expect(sizes).toEqual([
        { id: atBound.id, bytes: MATCH_TEXT_BYTES },
        { id: long.id, bytes: lead.length + 1_200 + fixedBytes },
        { id: short.id, bytes: expect.any(Number) },
      ]);
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      // What was matched, whatever the view lists (filler words may make an item high-value, hence unlisted).
      const matched = await lf.sql<{ found_item_id: number }>(
        'SELECT found_item_id FROM claim_matches WHERE claim_id = $1 ORDER BY found_item_id',
        [claim.id],
      );
      expect(matched.map((row) => row.found_item_id)).toEqual([atBound.id, long.id, short.id]);
    });

    /** How each branch of the plan reads its rows: `<scan>: <index>` (a backward scan counts as a scan), sorted. */
    async function branchScans(claim: Omit<ClaimToMatch, 'location_id'>, words: string | undefined) {
      const { locationId } = await lf.newLocation();
      const { sql: text, parameters } = compileSql(
        claimCandidatesStatement({ location_id: locationId, ...claim }, words)!,
      );
      // The tables here are small enough for a sequential scan; what is checked is that the indexes can serve.
      await lf.sql('SET enable_seqscan = off');
      await lf.sql('SET enable_bitmapscan = off');
      try {
        const plan = await lf.sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, [...parameters]);
        return plan
          .map(({ 'QUERY PLAN': line }) =>
            /(Index Only Scan|Index Scan)(?: Backward)? using (\w+) on found_items /.exec(line),
          )
          .filter((scan) => scan !== null && scan[2] !== 'found_items_pkey')
          .map((scan) => `${scan![1]}: ${scan![2]}`)
          .sort();
      } finally {
        await lf.sql('RESET enable_seqscan');
        await lf.sql('RESET enable_bitmapscan');
      }
    }
    // Which of the two covering indexes serves a class branch is the planner's choice by cost (by class at a
    // location with many items; either on the empty tables here): both are index-only.
    const shortTexts = /^Index Only Scan: found_items_claim_candidates_(by_date_)?idx$/;
    const longTexts = 'Index Scan: found_items_claim_candidates_long_idx';

    it.each([
      [
        'a class with words (its class, `other` items)',
        { category_class: 'umbrella', lost_date: '2026-11-17' },
        'red | umbrella',
        2,
      ],
      ['a class without a word nor a loss date', { category_class: 'umbrella', lost_date: null }, undefined, 1],
      ['an `other` claim', { category_class: 'other', lost_date: '2026-11-17' }, 'black | thing', 1],
    ])('plans %s as index-only scans of the short texts beside the long texts', async (_, claim, words, classes) => {
      const scans = await branchScans(claim, words);
      expect(scans).toEqual([
        ...Array.from({ length: classes }, () => expect.stringMatching(shortTexts)),
        ...Array.from({ length: classes }, () => longTexts),
      ]);
    });
  });

  describe('a claim whose text holds no searchable word', () => {
    // The spec lets a claim name only its category. With no word to search for (none at all, the stop word
    // "it", an emoji) the candidates are ranked by category alone (it used to end in `ORDER BY 0` and a 500).
    it.each([
      ['only a category', {}],
      ['a description "it"', { description: 'it' }],
      ['an emoji for a description', { description: '\u{1F302}' }],
    ])('is filed and matched by category: %s', async (_, text) => {
      const { accountId, locationId } = await lf.newLocation();
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const claim = await lf.send(
        ClaimsRpc.file,
        {
          location_id: locationId,
          claimant_name: 'Jane Smith',
          claimant_phone: '+14158675309',
          category: 'umbrella',
          ...text,
        },
        accountId,
      );
      expect(claim).toMatchObject({ category: 'umbrella', status: 'open', has_match: true });
      expect(claim.matches?.map((match) => match.found_item_id)).toEqual([item.id]);
      const stored = await lf.sql<{ claims: number }>('SELECT count(*)::int AS claims FROM claims WHERE id = $1', [
        claim.id,
      ]);
      expect(stored).toEqual([{ claims: 1 }]);
    });

    it.each([['it'], ['\u{1F302}'], ['it \u{1F302} !']])(
      'lists and searches claims with q=%j: the q filters nothing',
      async (q) => {
        const { accountId, locationId } = await lf.newLocation();
        const first = await lf.send(
          ClaimsRpc.file,
          claimBody(locationId, { description: 'it', color: '', lost_area: '' }),
          accountId,
        );
        const second = await lf.send(
          ClaimsRpc.file,
          claimBody(locationId, { description: '\u{1F302}', color: '', lost_area: '' }),
          accountId,
        );
        const page = await lf.send(ClaimsRpc.list, { location_id: locationId, q }, accountId);
        expect(page).toMatchObject({ total: 2, pages: 1 });
        expect(page.data.map((claim) => claim.id)).toEqual([second.id, first.id]);
      },
    );
  });

  describe('the claim detail and list', () => {
    it('adds claimant_email, proof_note, photos (the image first) and the timeline, starting with filed by API', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(
        ClaimsRpc.file,
        walletClaimBody(locationId, { image_url: 'https://img.example/mine.jpg' }),
        accountId,
      );
      const detail = await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId);
      expect(detail).toEqual({
        ...claim,
        claimant_email: 'jane@example.com',
        proof_note: 'Library card in the name of Jane Smith',
        photos: ['https://img.example/mine.jpg'],
        timeline: [{ created_at: expect.any(String), action: 'filed', staff_name: 'API', note: expect.any(String) }],
        texts: [],
      });
    });

    it('shows a low-value claim the items it matched later, while they are in storage', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const detail = await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId);
      expect(detail.has_match).toBe(true);
      expect(detail.matches).toEqual([expect.objectContaining({ found_item_id: item.id })]);
    });

    it('answers 404 not_found for an unknown claim or one of another location', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const elsewhere = await lf.newLocation({ accountId });
      const claim = await lf.send(ClaimsRpc.file, claimBody(elsewhere.locationId), accountId);
      expect(await lf.errorOf(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId)).toBe('not_found');
      expect(await lf.errorOf(ClaimsRpc.get, { location_id: locationId, id: 424_242 }, accountId)).toBe('not_found');
    });

    it('lists claims with the found-item filters: status, category, area, lost_date from/to, q and pages', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const a = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { lost_date: '2026-11-01', lost_area: 'Gate B12' }),
        accountId,
      );
      const b = await lf.send(
        ClaimsRpc.file,
        walletClaimBody(locationId, { lost_date: '2026-11-10', claimant_name: 'Ana Lopez' }),
        accountId,
      );
      const c = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, {
          category: 'scarf',
          description: 'green wool scarf',
          color: 'green',
          lost_area: 'Lobby',
          lost_date: undefined,
        }),
        accountId,
      );
      const ids = async (query: Record<string, unknown>) =>
        (await lf.send(ClaimsRpc.list, { location_id: locationId, ...query }, accountId)).data.map((claim) => claim.id);

      const page = await lf.send(ClaimsRpc.list, { location_id: locationId }, accountId);
      expect(page).toMatchObject({ total: 3, page: 1, pages: 1, per: 25 });
      expect(page.data.map((claim) => claim.id)).toEqual([c.id, b.id, a.id]);
      expect(page.data.find((claim) => claim.id === b.id)).toMatchObject({ verify_required: true });
      expect(page.data.find((claim) => claim.id === b.id)).not.toHaveProperty('matches');
      expect(await ids({ category: 'Wallet' })).toEqual([b.id]);
      expect(await ids({ category: 'Scarf' })).toEqual([c.id]);
      expect(await ids({ category: 'clothing' })).toEqual([]);
      expect(await ids({ area: 'gate b12' })).toEqual([a.id]);
      expect(await ids({ from: '2026-11-01', to: '2026-11-09' })).toEqual([a.id]);
      expect(await ids({ from: '2026-11-10' })).toEqual([b.id]);
      expect(await ids({ q: 'wool' })).toEqual([c.id]);
      expect(await ids({ q: 'lopez' })).toEqual([b.id]);
      expect(await ids({ status: 'reunited' })).toEqual([]);
      expect(await ids({ page: 2 })).toEqual([]);
    });
  });
});
