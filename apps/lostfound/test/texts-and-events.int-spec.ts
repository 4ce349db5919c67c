import { ClaimsRpc, FoundItemsRpc, SimulatedSmsRpc } from '@switchboard/contracts';
import { MatchesRepository } from '../src/matching/matches.repository';
import { LostfoundPrisma } from '../src/prisma/lostfound-prisma';
import { MatchNotifier } from '../src/sms/match-notifier';
import { SimulatedSmsAdapter } from '../src/sms/simulated-sms.adapter';
import { claimBody, walletClaimBody } from './factories/claim.factory';
import { foundItemBody, foundWalletBody } from './factories/found-item.factory';
import { eventually, startLostfound, type LostfoundUnderTest } from './support/lostfound-harness';

jest.setTimeout(60_000);

describe('lostfound: texting claimants and events', () => {
  let lf: LostfoundUnderTest;
  beforeAll(async () => {
    lf = await startLostfound();
  });
  afterAll(() => lf?.stop());

  const textsTo = async (to: string) => (await lf.send(SimulatedSmsRpc.list, { to })).data;

  describe('texts', () => {
    it('texts the claimant of each open claim a newly logged item matches, and no one else', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const matching = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      const alsoMatching = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { description: 'umbrella', color: '', lost_area: '' }),
        accountId,
      );
      const other = await lf.send(
        ClaimsRpc.file,
        claimBody(locationId, { description: 'blue umbrella', color: 'blue' }),
        accountId,
      );
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);

      const texts = await textsTo(matching.claimant_phone);
      expect(texts).toEqual([{ to: matching.claimant_phone, body: expect.any(String), sent_at: expect.any(String) }]);
      expect(texts[0].body).toContain(`an umbrella (red) handed in on ${item.found_date}`);
      expect(texts[0].body).toContain(`#${matching.id}`);
      expect(await textsTo(alsoMatching.claimant_phone)).toHaveLength(1);
      expect(await textsTo(other.claimant_phone)).toEqual([]);
    });

    it('keeps each text sent on its claim, and shows them in the claim detail oldest first', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      const detailOf = () => lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId);
      expect((await detailOf()).texts).toEqual([]);

      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const sent = await textsTo(claim.claimant_phone);
      expect(sent).toHaveLength(2);
      const { texts } = await detailOf();
      expect(texts).toEqual([
        { body: sent[1].body, sent_at: expect.any(String) },
        { body: sent[0].body, sent_at: expect.any(String) },
      ]);
      expect(texts[0].body).toContain(`#${claim.id}`);
      expect(Date.parse(texts[0].sent_at)).not.toBeNaN();

      const { accountId: otherAccount, locationId: otherLocation } = await lf.newLocation();
      const stranger = await lf.send(ClaimsRpc.file, claimBody(otherLocation), otherAccount);
      expect(
        (await lf.send(ClaimsRpc.get, { location_id: otherLocation, id: stranger.id }, otherAccount)).texts,
      ).toEqual([]);
    });

    it('does not text a claimant twice for the same item, however often the match is seen', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const prisma = lf.app.get(LostfoundPrisma);
      await prisma.$transaction((tx) =>
        lf.app
          .get(MatchesRepository)
          .record(tx, [{ claim_id: claim.id, found_item_id: item.id, score: 9, notify: true }]),
      );
      await lf.app.get(MatchNotifier).flush();
      await lf.app.get(MatchNotifier).flush();
      expect(await textsTo(claim.claimant_phone)).toHaveLength(1);

      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      expect(await textsTo(claim.claimant_phone)).toHaveLength(2);
    });

    it('tells a high-value claimant only that there may be a match, to call and bring proof', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, walletClaimBody(locationId), accountId);
      const item = await lf.send(FoundItemsRpc.log, foundWalletBody(locationId), accountId);
      const [text] = await textsTo(claim.claimant_phone);
      expect(text.body).toMatch(/possible match/);
      expect(text.body).toMatch(/proof of ownership/);
      for (const detail of ['leather', 'initials', 'J.S.', 'Safe 1', item.found_date, 'black', 'wallet']) {
        expect(text.body.toLowerCase()).not.toContain(detail.toLowerCase());
      }
    });

    it('does not text for the matches a claim finds when it is filed (its answer says so), nor once it is reunited', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      expect(claim.has_match).toBe(true);
      await lf.send(ClaimsRpc.reunite, { location_id: locationId, id: claim.id, found_item_id: item.id }, accountId);
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      expect(await textsTo(claim.claimant_phone)).toEqual([]);
    });

    it('tries a text again when the provider failed to take it', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      const adapter = lf.app.get(SimulatedSmsAdapter);
      const send = jest.spyOn(adapter, 'send').mockRejectedValueOnce(new Error('provider down'));
      try {
        await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
        expect(await textsTo(claim.claimant_phone)).toEqual([]);
        expect((await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId)).texts).toEqual([]);
        await lf.app.get(MatchNotifier).flush();
        expect(await textsTo(claim.claimant_phone)).toHaveLength(1);
        expect((await lf.send(ClaimsRpc.get, { location_id: locationId, id: claim.id }, accountId)).texts).toHaveLength(
          1,
        );
      } finally {
        send.mockRestore();
      }
    });

    it('lists the texts to one number newest first, and refuses a `to` that is not E.164', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { found_date: '2026-11-18' }), accountId);
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { found_date: '2026-11-19' }), accountId);
      const texts = await textsTo(claim.claimant_phone);
      expect(texts.map((text) => text.body.includes('2026-11-19'))).toEqual([true, false]);
      expect(Date.parse(texts[0].sent_at)).toBeGreaterThanOrEqual(Date.parse(texts[1].sent_at));
      expect(await lf.errorOf(SimulatedSmsRpc.list, { to: '415-867-5309' })).toBe('invalid_request');
      expect(await textsTo('+14150000000')).toEqual([]);
    });
  });

  describe('events', () => {
    it('sends lostfound.found_logged and lostfound.claim_filed through the outbox with their documented fields', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId), accountId);
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      const events = await eventually(async () => {
        const all = await lf.events();
        const filed = all.find((e) => e.type === 'lostfound.claim_filed' && e.data.claim_id === claim.id);
        const logged = all.find((e) => e.type === 'lostfound.found_logged' && e.data.found_item_id === item.id);
        return filed && logged ? { filed, logged } : undefined;
      });
      expect(events.filed).toMatchObject({
        id: expect.any(String),
        occurred_at: expect.any(String),
        correlation_id: expect.any(String),
      });
      expect(events.filed.data).toEqual({
        account_id: accountId,
        location_id: locationId,
        claim_id: claim.id,
        category: 'umbrella',
        value_class: 'low',
        has_match: false,
        filed_at: claim.created_at,
      });
      expect(events.logged.data).toEqual({
        account_id: accountId,
        location_id: locationId,
        found_item_id: item.id,
        category: 'umbrella',
        value_class: 'low',
        found_date: '2026-11-18',
        matched_claims: 1,
        logged_at: item.created_at,
      });
    });

    it("never puts a claimant's name, phone, email or proof note in any event", async () => {
      const { accountId, locationId } = await lf.newLocation();
      const body = walletClaimBody(locationId, {
        claimant_name: 'Zebulon Quartermaine',
        claimant_email: 'zq@example.org',
        proof_note: 'engraved ZQ-1234',
      });
      const claim = await lf.send(ClaimsRpc.file, body, accountId);
      const item = await lf.send(FoundItemsRpc.log, foundWalletBody(locationId), accountId);
      await lf.send(
        ClaimsRpc.reunite,
        { location_id: locationId, id: claim.id, found_item_id: item.id, verified: true },
        accountId,
      );
      const events = await eventually(async () => {
        const all = (await lf.events()).filter((e) => e.data.location_id === locationId);
        return all.length === 3 ? all : undefined;
      });
      expect(events.map((e) => e.type).sort()).toEqual([
        'lostfound.claim_filed',
        'lostfound.found_logged',
        'lostfound.reunited',
      ]);
      const json = JSON.stringify(events);
      for (const secret of [
        claim.claimant_phone,
        claim.claimant_phone.slice(2),
        'Zebulon',
        'Quartermaine',
        'zq@example.org',
        'ZQ-1234',
        'initials',
      ]) {
        expect(json).not.toContain(secret);
      }
    });
  });
});
