import { randomInt } from 'node:crypto';
import { ClaimsRpc, FoundItemsRpc, LocationsRpc, SimulatedSmsRpc } from '@switchboard/contracts';
import { newAccountId } from './factories/account.factory';
import { claimBody, newPhone } from './factories/claim.factory';
import { foundItemBody } from './factories/found-item.factory';
import { startLostfound, type LostfoundUnderTest } from './support/lostfound-harness';

jest.setTimeout(60_000);

/** The texting rule (docs/adr/0053-lostfound-search-matching-and-texts.md), with small limits: 5 texts an account, 2 a phone. */
describe('lostfound: texting limits', () => {
  let lf: LostfoundUnderTest;
  beforeAll(async () => {
    lf = await startLostfound({ LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT: '5', LOSTFOUND_SMS_PHONE_DAILY_LIMIT: '2' });
  });
  afterAll(() => lf?.stop());

  const textsTo = async (to: string) => (await lf.send(SimulatedSmsRpc.list, { to })).data;
  /** A UK mobile, a number of Jamaica (+1 876: North American dialling, not the US or Canada), a Canadian one. */
  const ukPhone = () => `+447400${randomInt(100_000, 999_999)}`;
  const jamaicaPhone = () => `+1876${randomInt(2_000_000, 9_999_999)}`;
  const canadaPhone = () => `+1613${randomInt(2_000_000, 9_999_999)}`;
  const stored = () =>
    lf.sql<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM found_items) AS items, (SELECT count(*)::int FROM claim_matches) AS matches,
              (SELECT count(*)::int FROM simulated_sms) AS texts, (SELECT count(*)::int FROM outbox_events) AS events,
              (SELECT coalesce(sum(texts), 0)::int FROM daily_text_counts) AS counted`,
    );

  describe('countries', () => {
    it('files a claim with a phone outside the US and Canada, matches it, and never texts it', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const uk = await lf.send(ClaimsRpc.file, claimBody(locationId, { claimant_phone: ukPhone() }), accountId);
      const jamaica = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { claimant_phone: jamaicaPhone() }),
        accountId,
      );
      const canada = await lf.send(ClaimsRpc.file, claimBody(locationId, { claimant_phone: canadaPhone() }), accountId);
      const us = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      expect([uk.status, jamaica.status]).toEqual(['open', 'open']);

      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      expect(await textsTo(uk.claimant_phone)).toEqual([]);
      expect(await textsTo(jamaica.claimant_phone)).toEqual([]);
      expect(await textsTo(canada.claimant_phone)).toHaveLength(1);
      expect(await textsTo(us.claimant_phone)).toHaveLength(1);
      expect((await lf.send(ClaimsRpc.get, { location_id: locationId, id: uk.id }, accountId)).has_match).toBe(true);
      const queued = await lf.sql('SELECT count(*)::int AS n FROM claim_matches WHERE claim_id = ANY($1) AND notify', [
        [uk.id, jamaica.id],
      ]);
      expect(queued).toEqual([{ n: 0 }]);
    });

    it('texts the countries a location allows, when the operator set them', async () => {
      const accountId = newAccountId();
      const location = await lf.send(LocationsRpc.create, {
        account_id: accountId,
        name: 'Heathrow T5',
        sms_countries: ['gb', 'US'],
      });
      expect(location.sms_countries).toEqual(['GB', 'US']);
      const uk = await lf.send(ClaimsRpc.file, claimBody(location.id, { claimant_phone: ukPhone() }), accountId);
      const canada = await lf.send(
        ClaimsRpc.file,
        claimBody(location.id, { claimant_phone: canadaPhone() }),
        accountId,
      );
      await lf.send(FoundItemsRpc.log, foundItemBody(location.id), accountId);
      expect(await textsTo(uk.claimant_phone)).toHaveLength(1);
      expect(await textsTo(canada.claimant_phone)).toEqual([]);
    });

    it('answers a new location with the default countries, US and CA, and refuses a code that is no country', async () => {
      const accountId = newAccountId();
      expect(await lf.send(LocationsRpc.create, { account_id: accountId, name: 'Depot' })).toMatchObject({
        sms_countries: ['US', 'CA'],
      });
      for (const sms_countries of [['XX'], ['USA'], 'US', [1]]) {
        expect(
          await lf.errorOf(LocationsRpc.create, { account_id: accountId, name: 'Depot', sms_countries } as never),
        ).toBe('invalid_request');
      }
    });
  });

  describe('per claimant phone', () => {
    it('texts a phone once about one item, for its best claim, at most twice a day, and queues nothing beyond', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const phone = newPhone();
      const vague = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { claimant_phone: phone, description: 'umbrella', color: '', lost_area: '' }),
        accountId,
      );
      const closer = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { claimant_phone: phone, description: 'Red umbrella with a wooden handle' }),
        accountId,
      );
      const other = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);

      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const texts = await textsTo(phone);
      expect(texts.map((text) => text.body)).toEqual([expect.stringContaining(`claim #${closer.id})`)]);
      expect(await textsTo(other.claimant_phone)).toHaveLength(1);

      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      expect(await textsTo(phone)).toHaveLength(2);
      expect(await textsTo(other.claimant_phone)).toHaveLength(2);
      const queued = await lf.sql('SELECT count(*)::int AS n FROM claim_matches WHERE claim_id = ANY($1) AND notify', [
        [vague.id, closer.id],
      ]);
      expect(queued).toEqual([{ n: 2 }]);
      const counted = await lf.sql("SELECT texts FROM daily_text_counts WHERE scope = 'phone' AND subject = $1", [
        phone,
      ]);
      expect(counted).toEqual([{ texts: 2 }]);
    });

    it("counts a phone's texts over every account", async () => {
      const phone = newPhone();
      for (let n = 0; n < 3; n += 1) {
        const { accountId, locationId } = await lf.newLocation();
        await lf.send(ClaimsRpc.file, claimBody(locationId, { claimant_phone: phone }), accountId);
        await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      }
      expect(await textsTo(phone)).toHaveLength(2);
    });
  });

  describe('per account', () => {
    it("refuses an item whose texts would go beyond the account's day with 429 text_limit, storing nothing", async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claims = [];
      for (let n = 0; n < 6; n += 1) claims.push(await lf.send(ClaimsRpc.file, claimBody(locationId), accountId));
      const before = await stored();

      expect(await lf.errorOf(FoundItemsRpc.log, foundItemBody(locationId), accountId)).toBe('text_limit');
      expect(await stored()).toEqual(before);
      for (const claim of claims) expect(await textsTo(claim.claimant_phone)).toEqual([]);

      // The desk can still log it, without texting anyone; its matches are recorded.
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { text_claimants: false }), accountId);
      expect(item.status).toBe('stored');
      for (const claim of claims) expect(await textsTo(claim.claimant_phone)).toEqual([]);
      expect((await lf.send(ClaimsRpc.get, { location_id: locationId, id: claims[0].id }, accountId)).has_match).toBe(
        true,
      );
    });

    it('texts up to the limit, then refuses only what would pass it; an item texting no one is still logged', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const umbrellas = [];
      for (let n = 0; n < 4; n += 1) umbrellas.push(await lf.send(ClaimsRpc.file, claimBody(locationId), accountId));
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      for (const claim of umbrellas) expect(await textsTo(claim.claimant_phone)).toHaveLength(1);

      const bags = [];
      for (let n = 0; n < 2; n += 1) {
        bags.push(
          await lf.send(
            ClaimsRpc.file,
            claimBody(locationId, { category: 'bag', description: 'green backpack', color: 'green' }),
            accountId,
          ),
        );
      }
      const bag = foundItemBody(locationId, { category: 'bag', description: 'Green backpack', color: 'green' });
      expect(await lf.errorOf(FoundItemsRpc.log, bag, accountId)).toBe('text_limit');

      const book = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(locationId, { category: 'book', description: 'Paperback novel', color: '' }),
        accountId,
      );
      expect(book.status).toBe('stored');

      // Another account has its own day.
      const elsewhere = await lf.newLocation();
      const theirs = await lf.send(ClaimsRpc.file, claimBody(elsewhere.locationId), elsewhere.accountId);
      await lf.send(FoundItemsRpc.log, foundItemBody(elsewhere.locationId), elsewhere.accountId);
      expect(await textsTo(theirs.claimant_phone)).toHaveLength(1);
    });

    it('lets only one of two parallel items take the last texts of the day', async () => {
      const { accountId, locationId } = await lf.newLocation();
      for (let n = 0; n < 3; n += 1) await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      const answers = await Promise.allSettled([
        lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId),
        lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = answers.find((answer) => answer.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'text_limit' });
      const counted = await lf.sql("SELECT texts FROM daily_text_counts WHERE scope = 'account' AND subject = $1", [
        accountId,
      ]);
      expect(counted).toEqual([{ texts: 3 }]);
    });
  });

  it('keeps the counts of today and yesterday only', async () => {
    const { accountId, locationId } = await lf.newLocation();
    const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
    const old = newPhone();
    const today = new Date().toISOString().slice(0, 10);
    await lf.sql(
      `INSERT INTO daily_text_counts (scope, subject, day, texts)
       VALUES ('phone', $1, $3::date - 2, 3), ('phone', $1, $3::date - 1, 3), ('account', $2, $3::date - 9, 200)`,
      [old, accountId, today],
    );
    await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
    const kept = await lf.sql<{ subject: string; days_ago: number }>(
      `SELECT subject, ($2::date - day)::int AS days_ago FROM daily_text_counts
        WHERE subject = ANY($1) ORDER BY days_ago, scope`,
      [[old, accountId, claim.claimant_phone], today],
    );
    expect(kept).toEqual([
      { subject: accountId, days_ago: 0 },
      { subject: claim.claimant_phone, days_ago: 0 },
      { subject: old, days_ago: 1 },
    ]);
  });

  it('puts no link a tenant wrote into a text', async () => {
    const accountId = newAccountId();
    const location = await lf.send(LocationsRpc.create, {
      account_id: accountId,
      name: 'Union Station pay.evil.example/fee',
    });
    const claim = await lf.send(ClaimsRpc.file, claimBody(location.id), accountId);
    await lf.send(
      FoundItemsRpc.log,
      foundItemBody(location.id, {
        description: 'Red umbrella, claim it at https://evil.example/c or bit.ly/x',
        color: 'red www.evil.example',
      }),
      accountId,
    );
    const [text] = await textsTo(claim.claimant_phone);
    expect(text.body).toMatch(/^Union Station lost & found: an umbrella \(red\) handed in on 2026-11-18/);
    expect(text.body).not.toMatch(/https?:|www|evil|bit\.ly/);
  });
});
