import { periodStart } from '../../apps/numbers-billing/src/billing/billing-periods';
import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(120_000);

const DAY = 24 * 3600 * 1000;

/** The money side through the operator API: billing runs, grace and release, credits, auto-top-up, the ledger, talk time. */
describe('billing through the gateway', () => {
  let system: RunningSystem;
  let admin: AdminClient;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'calls-media'] });
    admin = new AdminClient(system);
  });
  afterAll(() => system?.stop());

  const body = { business_phone: '+14155550123' };
  const account = async (session: ApiSession) =>
    (await admin.request('GET', `/admin/accounts/${session.accountId}`)).body;
  const ledger = async (session: ApiSession) =>
    (await admin.request('GET', `/admin/accounts/${session.accountId}/ledger`)).body;
  const run = (now: Date) => admin.request('POST', '/admin/billing/run', { now: now.toISOString() });
  const statusOf = async (session: ApiSession, id: string) =>
    (await session.get('/numbers')).body.data.find((n: { id: string }) => n.id === id)?.status as string | undefined;
  const monthsAfter = (createdAt: string, months: number, extraMs = 0) =>
    new Date(periodStart(new Date(createdAt), months).getTime() + extraMs);
  /** Keeps asking until `accept` holds (events travel asynchronously), then returns the last answer. */
  const eventually = async <T>(probe: () => Promise<T>, accept: (v: T) => boolean, timeoutMs = 15_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    let value = await probe();
    while (!accept(value) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      value = await probe();
    }
    return value;
  };
  const balanceEqualsLedger = async (session: ApiSession) => {
    const rows: { amount_millicents: number }[] = [];
    let page = await admin.request('GET', `/admin/accounts/${session.accountId}/ledger?limit=100`);
    rows.push(...page.body.data);
    while (page.body.has_more) {
      page = await admin.request(
        'GET',
        `/admin/accounts/${session.accountId}/ledger?limit=100&starting_after=${page.body.data.at(-1).id}`,
      );
      rows.push(...page.body.data);
    }
    expect(rows.reduce((sum, r) => sum + r.amount_millicents, 0)).toBe(page.body.balance_millicents);
  };

  describe('POST /admin/billing/run', () => {
    it('charges a number once per month however often it runs, and answers what it did', async () => {
      const session = await ApiSession.create(system, { balance_cents: 2_000 });
      const number = (await session.post('/numbers', body)).body;
      const now = monthsAfter(number.created_at, 1, 60_000);
      const runs = await Promise.all([run(now), run(now), run(now)]);
      for (const answer of runs) {
        expect(answer.status).toBe(200);
        expect(Object.keys(answer.body).sort()).toEqual(['charged', 'past_due', 'released']);
      }
      expect(runs.reduce((sum, a) => sum + a.body.charged, 0)).toBeGreaterThanOrEqual(1);
      expect((await account(session)).balance_cents).toBe(2_000 - 2 * 500);
      await balanceEqualsLedger(session);
    });

    it('makes an unpaid number past_due, gives it 7 days, then releases it', async () => {
      const session = await ApiSession.create(system, { balance_cents: 500 });
      const number = (await session.post('/numbers', body)).body;
      const due = monthsAfter(number.created_at, 1, 60_000);
      expect((await run(due)).body.past_due).toBeGreaterThanOrEqual(1);
      expect(await statusOf(session, number.id)).toBe('past_due');

      await run(new Date(due.getTime() + 6 * DAY));
      expect(await statusOf(session, number.id)).toBe('past_due');
      expect((await run(new Date(due.getTime() + 7 * DAY))).body.released).toBeGreaterThanOrEqual(1);
      expect(await statusOf(session, number.id)).toBe('released');
    });

    it('returns a past_due number to active when the account is credited within the grace', async () => {
      const session = await ApiSession.create(system, { balance_cents: 500 });
      const number = (await session.post('/numbers', body)).body;
      await run(monthsAfter(number.created_at, 1, 60_000));
      expect(await statusOf(session, number.id)).toBe('past_due');
      const credit = await admin.request('POST', `/admin/accounts/${session.accountId}/credits`, {
        amount_cents: 1_000,
      });
      expect(credit).toMatchObject({ status: 200, body: { balance_cents: 500 } });
      expect(await statusOf(session, number.id)).toBe('active');
    });

    it('needs the admin token and a date-time', async () => {
      const anonymous = await fetch(`${system.adminUrl}/admin/billing/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(anonymous.status).toBe(401);
      const bad = await admin.request('POST', '/admin/billing/run', { now: 'next tuesday' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    });
  });

  describe('PATCH /admin/accounts/{id} auto_top_up', () => {
    it('sets, shows and clears auto-top-up, refusing amounts outside $5..$500', async () => {
      const session = await ApiSession.create(system);
      const path = `/admin/accounts/${session.accountId}`;
      const set = await admin.request('PATCH', path, { auto_top_up: { threshold_cents: 1_000, amount_cents: 500 } });
      expect(set.status).toBe(200);
      expect(set.body.auto_top_up).toEqual({ threshold_cents: 1_000, amount_cents: 500 });
      expect((await admin.request('GET', path)).body.auto_top_up).toEqual({
        threshold_cents: 1_000,
        amount_cents: 500,
      });
      expect(
        (await admin.request('PATCH', path, { auto_top_up: { threshold_cents: 1_000, amount_cents: 499 } })).status,
      ).toBe(400);
      expect(
        (await admin.request('PATCH', path, { auto_top_up: { threshold_cents: -1, amount_cents: 500 } })).status,
      ).toBe(400);
      expect(
        (await admin.request('PATCH', path, { auto_top_up: { threshold_cents: 0, amount_cents: 50_001 } })).status,
      ).toBe(400);
      expect((await admin.request('PATCH', path, { auto_top_up: null })).body.auto_top_up).toBeNull();
    });

    it('tops the balance up through the payment port when a charge drops it below the threshold', async () => {
      const session = await ApiSession.create(system, { balance_cents: 1_000 });
      await admin.request('PATCH', `/admin/accounts/${session.accountId}`, {
        auto_top_up: { threshold_cents: 800, amount_cents: 2_000 },
      });
      expect((await session.post('/numbers', body)).status).toBe(201);
      expect((await account(session)).balance_cents).toBe(500 + 2_000);
      const kinds = (await ledger(session)).data.map((row: { kind: string }) => row.kind);
      expect(kinds).toEqual(['auto_top_up', 'number_month', 'top_up']);
    });

    it('logs a declined payment and charges nothing', async () => {
      const session = await ApiSession.create(system, { balance_cents: 1_000 });
      await admin.request('PATCH', `/admin/accounts/${session.accountId}`, {
        auto_top_up: { threshold_cents: 800, amount_cents: 2_000 },
      });
      expect((await admin.request('PUT', '/admin/payments/faults', { charge_failures: 1 })).body).toEqual({
        charge_failures: 1,
      });
      expect((await session.post('/numbers', body)).status).toBe(201);
      expect((await account(session)).balance_cents).toBe(500);
    });
  });

  describe('GET /admin/accounts/{id}/ledger', () => {
    it('lists every balance change newest first, with its reason and reference', async () => {
      const session = await ApiSession.create(system, { balance_cents: 1_000 });
      const number = (await session.post('/numbers', body)).body;
      await admin.request('POST', `/admin/accounts/${session.accountId}/credits`, { amount_cents: 250 });
      const page = await ledger(session);
      expect(page).toMatchObject({
        account_id: session.accountId,
        balance_cents: 750,
        balance_millicents: 750_000,
        has_more: false,
      });
      expect(page.data).toEqual([
        expect.objectContaining({ kind: 'top_up', amount_millicents: 250_000, balance_after_millicents: 750_000 }),
        expect.objectContaining({
          kind: 'number_month',
          reference: `number_month:${number.id}:0`,
          amount_millicents: -500_000,
        }),
        expect.objectContaining({ kind: 'top_up', amount_millicents: 1_000_000, balance_after_millicents: 1_000_000 }),
      ]);
      expect(page.data[0]).toEqual({
        id: expect.stringMatching(/^le_\d+$/),
        kind: 'top_up',
        reference: expect.any(String),
        amount_millicents: 250_000,
        balance_after_millicents: 750_000,
        description: expect.any(String),
        created_at: expect.any(String),
      });
    });

    it('answers 404 not_found for an unknown account', async () => {
      const answer = await admin.request('GET', '/admin/accounts/acct_00000000000000000000/ledger');
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    });
  });

  describe('POST /admin/accounts/{id}/credits: the most a balance holds (issue 47)', () => {
    /** MAX_BALANCE_CENTS: $10,000,000,000.00. */
    const MOST = 1_000_000_000_000;
    const credit = (accountId: string, amount_cents: number) =>
      admin.request('POST', `/admin/accounts/${accountId}/credits`, { amount_cents });
    const refusal = (message: string) => ({ status: 400, body: { error: { code: 'invalid_request', message } } });

    it('refuses with 400 naming amount_cents a credit that would take the balance past it, changing nothing', async () => {
      const { id } = await admin.createAccount();
      // The largest exact JSON number, twice: the first used to be taken, the second to overflow the bigint (500).
      for (const attempt of [1, 2]) {
        const answer = await credit(id, Number.MAX_SAFE_INTEGER);
        expect({ attempt, status: answer.status, body: answer.body }).toEqual({
          attempt,
          ...refusal(`amount_cents must be at most ${MOST}`),
        });
      }
      // Two large credits that each fit: the second would pass the most.
      expect(await credit(id, 600_000_000_000)).toMatchObject({
        status: 200,
        body: { balance_cents: 600_000_000_000 },
      });
      const second = await credit(id, 600_000_000_000);
      expect({ status: second.status, body: second.body }).toEqual(
        refusal(
          `amount_cents would take the balance past ${MOST} cents, the most an account holds: ` +
            'the balance is 600000000000 cents, room for 400000000000 more.',
        ),
      );
      const afterRefusal = (await admin.request('GET', `/admin/accounts/${id}/ledger`)).body;
      expect({ balance: afterRefusal.balance_millicents, rows: afterRefusal.data.length }).toEqual({
        balance: 600_000_000_000_000,
        rows: 1,
      });
      // Up to the most exactly is taken, and read back exactly (in millicents too); one cent more is not.
      expect(await credit(id, 400_000_000_000)).toMatchObject({ status: 200, body: { balance_cents: MOST } });
      const full = await credit(id, 1);
      expect({ status: full.status, body: full.body }).toEqual(
        refusal(
          `amount_cents would take the balance past ${MOST} cents, the most an account holds: ` +
            `the balance is ${MOST} cents, room for 0 more.`,
        ),
      );
      const page = (await admin.request('GET', `/admin/accounts/${id}/ledger`)).body;
      expect({ cents: page.balance_cents, millicents: page.balance_millicents, rows: page.data.length }).toEqual({
        cents: MOST,
        millicents: MOST * 1000,
        rows: 2,
      });
      expect((await admin.request('GET', `/admin/accounts/${id}`)).body.balance_cents).toBe(MOST);
    });

    it('takes one of two large credits sent at once when both would pass it', async () => {
      const { id } = await admin.createAccount();
      const answers = await Promise.all([credit(id, 600_000_000_000), credit(id, 600_000_000_000)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      expect((await admin.request('GET', `/admin/accounts/${id}`)).body.balance_cents).toBe(600_000_000_000);
    });

    it('refuses an opening balance past it with 400 naming balance_cents, and takes the most itself', async () => {
      const past = await admin.request('POST', '/admin/accounts', { name: 'Big Co', balance_cents: MOST + 1 });
      expect({ status: past.status, body: past.body }).toEqual(refusal(`balance_cents must be at most ${MOST}`));
      const most = await admin.createAccount({ name: 'Big Co', balance_cents: MOST });
      expect(most.balance_cents).toBe(MOST);
    });
  });

  describe('talk time', () => {
    it('bills a call reported by the provider by the second at the tier rate, once', async () => {
      const session = await ApiSession.create(system, { balance_cents: 10_000, tier: 'growth' });
      const number = (await session.post('/numbers', body)).body;
      // calls-media learns the number from number.provisioned before it can attribute a call to it.
      const report = () =>
        admin.request('POST', '/admin/provider/calls', {
          to: number.phone_number,
          caller: '+12125550142',
          duration_sec: 90,
          outcome: 'order',
        });
      const accepted = await report();
      expect(accepted.status).toBe(202);
      const rows = await eventually(
        async () => (await ledger(session)).data.filter((r: { kind: string }) => r.kind === 'talk_time'),
        (found) => found.length > 0,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].amount_millicents).toBe(-58_500); // 90 s at 39¢/min
      expect((await account(session)).balance_cents).toBe(10_000 - 500 - 59);
      await balanceEqualsLedger(session);
    });
  });

  describe('GET /v1/balance', () => {
    it("answers the caller's balance, tier and this month's talk time, nobody else's", async () => {
      const [session, other] = await Promise.all([
        ApiSession.create(system, { balance_cents: 10_000, tier: 'starter' }),
        ApiSession.create(system, { balance_cents: 300, tier: 'scale' }),
      ]);
      const period = new Date().toISOString().slice(0, 7);
      expect(await session.get('/balance')).toMatchObject({
        status: 200,
        body: {
          balance_cents: 10_000,
          tier: 'starter',
          period,
          minutes_used: 0,
          seconds_used: 0,
          minutes_included: 200,
        },
      });
      const number = (await session.post('/numbers', body)).body;
      const call = await admin.request('POST', '/admin/provider/calls', {
        to: number.phone_number,
        caller: '+12125550142',
        duration_sec: 150,
        outcome: 'order',
      });
      expect(call.status).toBe(202);
      const after = await eventually(
        () => session.get('/balance'),
        (answer) => answer.body.seconds_used > 0,
      );
      // 150 s at 49¢/min = 122.5¢, rounded to the millicent and shown in whole cents, rounded down.
      expect(after.body).toEqual({
        balance_cents: 10_000 - 500 - 123,
        tier: 'starter',
        period,
        minutes_used: 2,
        seconds_used: 150,
        minutes_included: 200,
        livemode: true,
      });
      expect(after.body.balance_cents).toBe((await account(session)).balance_cents);
      expect((await other.get('/balance')).body).toEqual({
        balance_cents: 300,
        tier: 'scale',
        period,
        minutes_used: 0,
        seconds_used: 0,
        minutes_included: null,
        livemode: true,
      });
    });

    it('needs an API key', async () => {
      const answer = await fetch(`${system.publicUrl}/v1/balance`);
      expect(answer.status).toBe(401);
    });
  });
});
