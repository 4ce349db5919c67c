import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  ClaimantRpc,
  ClaimsRpc,
  FoundItemsRpc,
  LocationsRpc,
  LostItemReportRpc,
  LostItemReportedEvent,
  PhoneLinesRpc,
  SimulatedSmsRpc,
  type EventEnvelope,
  type LostItemReportView,
  type LostItemReportedData,
} from '@switchboard/contracts';
import { RpcClient, eventSubject } from '@switchboard/messaging';
import { testNatsOptions } from '@switchboard/testing';
import { LostfoundClock } from '../src/common/clock';
import { LostItemReportsConsumer } from '../src/phone-reports/lost-item-reports.consumer';
import { claimBody } from './factories/claim.factory';
import { foundItemBody } from './factories/found-item.factory';
import { eventually, startLostfound, type LostfoundUnderTest } from './support/lostfound-harness';

jest.setTimeout(60_000);

/** Issue 16 inside lostfound: disposal (ADR 0079), the claimant page (ADR 0079) and phone reports (ADR 0079). */
describe('lostfound: the lost-and-found desk', () => {
  let lf: LostfoundUnderTest;
  let clock: LostfoundClock;
  beforeAll(async () => {
    lf = await startLostfound();
    clock = lf.app.get(LostfoundClock);
  });
  afterEach(() => {
    clock.set(undefined);
    jest.restoreAllMocks();
  });
  afterAll(() => lf?.stop());

  describe('disposal after the hold period', () => {
    it('refuses the day before hold_until with hold_period_not_over and allows it on the day, as a custody entry', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { found_date: '2026-11-01' }), accountId);
      const detail = await lf.send(FoundItemsRpc.get, { id: item.id, location_id: locationId }, accountId);
      expect(detail.hold_until).toBe('2026-12-31');

      clock.set(new Date('2026-12-30T23:59:59Z'));
      expect(
        await lf.errorOf(
          FoundItemsRpc.dispose,
          { id: item.id, location_id: locationId, outcome: 'disposed' },
          accountId,
        ),
      ).toBe('hold_period_not_over');
      const [unchanged] = await lf.sql<{ status: string; entries: number }>(
        `SELECT status, (SELECT count(*)::int FROM timeline_entries WHERE found_item_id = $1) AS entries FROM found_items WHERE id = $1`,
        [item.id],
      );
      expect(unchanged).toEqual({ status: 'stored', entries: 1 });

      clock.set(new Date('2026-12-31T00:00:00Z'));
      const disposed = await lf.send(
        FoundItemsRpc.dispose,
        { id: item.id, location_id: locationId, outcome: 'disposed', staff_name: 'Noor' },
        accountId,
      );
      expect(disposed.status).toBe('disposed');
      expect(disposed.timeline.map((entry) => [entry.action, entry.staff_name, entry.note])).toEqual([
        ['logged', 'API', expect.any(String)],
        ['disposed', 'Noor', 'Disposed of after the hold period.'],
      ]);
      expect(
        await lf.errorOf(
          FoundItemsRpc.dispose,
          { id: item.id, location_id: locationId, outcome: 'donated' },
          accountId,
        ),
      ).toBe('item_not_available');
    });

    it("reads the location's own hold_days, changed or not", async () => {
      const accountId = (await lf.newLocation()).accountId;
      const location = await lf.send(LocationsRpc.create, { account_id: accountId, name: 'Short hold', hold_days: 7 });
      expect(location).toMatchObject({ hold_days: 7, public_slug: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
      const item = await lf.send(
        FoundItemsRpc.log,
        foundItemBody(location.id, { found_date: '2026-11-01' }),
        accountId,
      );
      clock.set(new Date('2026-11-08T00:00:00Z'));
      expect((await lf.send(FoundItemsRpc.get, { id: item.id, location_id: location.id }, accountId)).hold_until).toBe(
        '2026-11-08',
      );
      await lf.send(LocationsRpc.update, { account_id: accountId, location_id: location.id, hold_days: 10 });
      expect(
        await lf.errorOf(
          FoundItemsRpc.dispose,
          { id: item.id, location_id: location.id, outcome: 'donated' },
          accountId,
        ),
      ).toBe('hold_period_not_over');
      clock.set(new Date('2026-11-11T08:00:00Z'));
      expect(
        (await lf.send(FoundItemsRpc.dispose, { id: item.id, location_id: location.id, outcome: 'donated' }, accountId))
          .status,
      ).toBe('donated');
      expect(
        await lf.errorOf(LocationsRpc.update, {
          account_id: (await lf.newLocation()).accountId,
          location_id: location.id,
          hold_days: 1,
        }),
      ).toBe('not_found');
    });

    it('leaves a claim without a match once its only matching item is donated', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const item = await lf.send(FoundItemsRpc.log, foundItemBody(locationId, { found_date: '2026-08-01' }), accountId);
      const claim = await lf.send(ClaimsRpc.file, claimBody(locationId, { lost_date: '2026-08-01' }), accountId);
      expect(claim.has_match).toBe(true);
      await lf.send(FoundItemsRpc.dispose, { id: item.id, location_id: locationId, outcome: 'donated' }, accountId);
      expect((await lf.send(ClaimsRpc.get, { id: claim.id, location_id: locationId }, accountId)).has_match).toBe(
        false,
      );
    });
  });

  describe('the claimant page', () => {
    it('files by slug with source web and a filed entry by the claimant page; another slug after a rotation', async () => {
      const { accountId, locationId } = await lf.newLocation();
      const [{ public_slug: slug }] = await lf.sql<{ public_slug: string }>(
        'SELECT public_slug FROM locations WHERE id = $1',
        [locationId],
      );
      expect(await lf.send(ClaimantRpc.location, { slug })).toEqual({
        name: expect.any(String),
        categories: expect.arrayContaining(['umbrella']),
      });
      const answer = await lf.send(ClaimantRpc.file, {
        slug,
        claimant_name: 'Ana',
        claimant_phone: '+14155550142',
        description: 'red umbrella',
        category: 'umbrella',
      });
      expect(answer).toMatchObject({ received: true, source: 'web' });
      const page = await lf.send(ClaimsRpc.list, { location_id: locationId }, accountId);
      expect(page.data.map((claim) => claim.source)).toEqual(['web']);
      expect(
        await lf.errorOf(ClaimantRpc.file, {
          slug,
          claimant_name: 'Ana',
          claimant_phone: '+14155550142',
          description: 'my daughter',
          category: 'child',
        }),
      ).toBe('urgent_category');

      const rotated = await lf.send(LocationsRpc.rotateSlug, { account_id: accountId, location_id: locationId });
      expect(rotated.public_slug).not.toBe(slug);
      expect(await lf.errorOf(ClaimantRpc.location, { slug })).toBe('not_found');
    });
  });

  describe('reports by phone', () => {
    let nc: NatsConnection;
    beforeAll(async () => {
      nc = await connect(testNatsOptions());
    });
    afterAll(() => nc?.close());

    const numberId = () => `num_${Math.floor(Math.random() * 1e9) + 1}`;
    const callSid = () => `CA${randomUUID().replace(/-/g, '')}`;

    function envelope(data: LostItemReportedData): EventEnvelope<LostItemReportedData> {
      return {
        id: randomUUID(),
        type: LostItemReportedEvent.type,
        occurred_at: new Date().toISOString(),
        correlation_id: randomUUID(),
        causation_id: data.call_sid,
        data,
      };
    }

    /** calls-media is not running here: its answer to `calls.v2.lost-item-report.get` is given by the test. */
    function reportIs(report: Omit<LostItemReportView, 'call_sid' | 'number_id'>): jest.SpyInstance {
      const rpc = lf.app.get(RpcClient);
      const original = rpc.request.bind(rpc);
      return jest.spyOn(rpc, 'request').mockImplementation((async (
        descriptor: { subject: string },
        payload: { call_sid: string },
        options: unknown,
      ) => {
        if (descriptor.subject === LostItemReportRpc.subject)
          return { ...report, call_sid: payload.call_sid, number_id: 'num_1' };
        return original(descriptor as never, payload as never, options as never);
      }) as never);
    }

    async function aLine(): Promise<{ accountId: string; locationId: number; number: string }> {
      const { accountId, locationId } = await lf.newLocation();
      const number = numberId();
      expect(await lf.send(PhoneLinesRpc.link, { number_id: number, location_id: locationId }, accountId)).toEqual({
        number_id: number,
        location_id: locationId,
      });
      return { accountId, locationId, number };
    }

    const caller = '+14155550177';
    const said = {
      caller,
      caller_name: 'Sam Lee',
      category: 'umbrella',
      description: 'red umbrella with a wooden handle',
      color: 'red',
      where_lost: 'Gate B12',
      lost_at: '2026-11-17T21:10:00-05:00',
    };

    it('files exactly one claim per call, with source phone, however often the event is delivered', async () => {
      const { accountId, locationId, number } = await aLine();
      const asked = reportIs(said);
      const data: LostItemReportedData = {
        call_sid: callSid(),
        account_id: accountId,
        number_id: number,
        category: 'umbrella',
        reported_at: new Date().toISOString(),
      };
      // Two publications of one call (distinct message ids, so JetStream's de-duplication does not hide the second),
      // and two deliveries racing in this process.
      const js = jetstream(nc);
      for (let i = 0; i < 2; i++)
        await js.publish(
          eventSubject({ prefix: lf.prefix }, LostItemReportedEvent.type),
          JSON.stringify(envelope(data)),
          { msgID: randomUUID() },
        );
      const consumer = lf.app.get(LostItemReportsConsumer);
      const outcomes = await Promise.all([consumer.handle(envelope(data)), consumer.handle(envelope(data))]);
      expect(outcomes.filter((outcome) => outcome === 'filed').length).toBeLessThanOrEqual(1);

      const claims = await eventually(async () => {
        const page = await lf.send(ClaimsRpc.list, { location_id: locationId }, accountId);
        return page.total > 0 && page;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await lf.send(ClaimsRpc.list, { location_id: locationId }, accountId)).total).toBe(1);
      expect(claims.data[0]).toMatchObject({
        source: 'phone',
        claimant_phone: caller,
        claimant_name: 'Sam Lee',
        lost_area: 'Gate B12',
        lost_date: '2026-11-18',
      });
      const [row] = await lf.sql<{ call_sid: string }>('SELECT call_sid FROM claims WHERE location_id = $1', [
        locationId,
      ]);
      expect(row.call_sid).toBe(data.call_sid);
      expect(asked).toHaveBeenCalled();
      expect(await consumer.handle(envelope(data))).toBe('repeat');

      // Matched like any claim: the caller is texted when the item is logged.
      await lf.send(FoundItemsRpc.log, foundItemBody(locationId), accountId);
      expect((await lf.send(SimulatedSmsRpc.list, { to: caller })).data.length).toBeGreaterThanOrEqual(1);
    });

    it('files nothing for a number that is no line of that account, or an urgent category', async () => {
      const { accountId, locationId, number } = await aLine();
      reportIs(said);
      const consumer = lf.app.get(LostItemReportsConsumer);
      const stranger = (await lf.newLocation()).accountId;
      const base = { category: 'umbrella', reported_at: new Date().toISOString() };
      expect(
        await consumer.handle(envelope({ ...base, call_sid: callSid(), account_id: stranger, number_id: number })),
      ).toBe('no_line');
      expect(
        await consumer.handle(envelope({ ...base, call_sid: callSid(), account_id: accountId, number_id: numberId() })),
      ).toBe('no_line');
      jest.restoreAllMocks();
      reportIs({ ...said, category: 'medication', description: 'my insulin pen' });
      expect(
        await consumer.handle(envelope({ ...base, call_sid: callSid(), account_id: accountId, number_id: number })),
      ).toBe('urgent');
      expect((await lf.send(ClaimsRpc.list, { location_id: locationId }, accountId)).total).toBe(0);
      expect(await lf.errorOf(PhoneLinesRpc.link, { number_id: numberId(), location_id: locationId }, stranger)).toBe(
        'location_not_found',
      );
    });

    it('never puts a claimant phone, name or proof note in the lostfound events of web and phone claims', async () => {
      const events = await lf.events();
      expect(events.length).toBeGreaterThan(0);
      const text = JSON.stringify(events);
      for (const secret of [caller, '+14155550142', 'Sam Lee', 'Ana', 'proof']) expect(text).not.toContain(secret);
      const filed = events.filter((event) => event.type === 'lostfound.claim_filed');
      expect(filed.length).toBeGreaterThan(0);
      for (const event of filed)
        expect(Object.keys(event.data).sort()).toEqual([
          'account_id',
          'category',
          'claim_id',
          'filed_at',
          'has_match',
          'location_id',
          'value_class',
        ]);
    });
  });
});
