import { AccountsRpc, BillingRpc, NumbersRpc, ServiceError, type NumberCreated } from '@switchboard/contracts';
import { allowancePeriod, periodStart } from '../src/billing/billing-periods';
import { SimulatedPaymentAdapter } from '../src/payments/simulated-payment.adapter';
import { TalkTimeRepository } from '../src/talk-time/talk-time.repository';
import { createAccount } from './factories/account.factory';
import { callCompleted, numberCreate } from './factories/number.factory';
import {
  balanceAndLedgerSum,
  eventually,
  startNumbersBilling,
  type NumbersBillingHarness,
} from './support/numbers-billing-harness';

jest.setTimeout(90_000);

const DAY = 24 * 3600 * 1000;

let h: NumbersBillingHarness;
const accounts: string[] = [];
beforeAll(async () => {
  h = await startNumbersBilling();
});
afterAll(() => h?.stop());

async function account(overrides: Parameters<typeof createAccount>[1] = {}) {
  const created = await createAccount(h, overrides);
  accounts.push(created.id);
  return created;
}

async function errorOf(promise: Promise<unknown>): Promise<ServiceError> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: unknown) => {
      if (error instanceof ServiceError) return error;
      throw error;
    },
  );
}

const balanceCents = async (accountId: string) =>
  (await h.request(AccountsRpc.get, { account_id: accountId })).balance_cents;
const balanceMillicents = async (accountId: string) => (await balanceAndLedgerSum(h.prisma, accountId)).balance;
const provision = (accountId: string) => h.request(NumbersRpc.provision, numberCreate(), accountId);
/** The moment `k` months after the number was provisioned, plus `extraMs`. */
const monthsAfter = (number: NumberCreated, k: number, extraMs = 0) =>
  new Date(periodStart(new Date(number.created_at), k).getTime() + extraMs);
const run = (now: Date) => h.request(BillingRpc.runCycle, { now: now.toISOString() });
const statusOf = async (accountId: string, id: string) =>
  (await h.request(NumbersRpc.list, {}, accountId)).data.find((n) => n.id === id)?.status;
const chargesOf = (id: string) =>
  h.prisma.ledgerEntry.findMany({
    where: { reference: { startsWith: `number_month:${id}:` } },
    orderBy: { id: 'asc' },
  });
const eventsOf = async (id: string, type: string) =>
  (await h.numberEvents()).filter((e) => e.data.number_id === id && e.type === type);

describe('the ledger', () => {
  it('writes an opening balance and every credit as a row, and the balance is their sum', async () => {
    const a = await account({ balance_cents: 1_234 });
    await expect(h.request(AccountsRpc.credit, { account_id: a.id, amount_cents: 766 })).resolves.toEqual({
      balance_cents: 2_000,
    });
    const page = await h.request(BillingRpc.ledger, { account_id: a.id });
    expect(page).toMatchObject({
      account_id: a.id,
      balance_cents: 2_000,
      balance_millicents: 2_000_000,
      has_more: false,
    });
    expect(page.data.map((row) => [row.kind, row.amount_millicents, row.balance_after_millicents])).toEqual([
      ['top_up', 766_000, 2_000_000],
      ['top_up', 1_234_000, 1_234_000],
    ]);
  });

  it('writes no row for an account opened with nothing', async () => {
    const a = await account({ balance_cents: 0 });
    expect((await h.request(BillingRpc.ledger, { account_id: a.id })).data).toEqual([]);
  });

  it('pages newest first with limit and starting_after', async () => {
    const a = await account({ balance_cents: 100 });
    for (const amount of [1, 2, 3]) await h.request(AccountsRpc.credit, { account_id: a.id, amount_cents: amount });
    const first = await h.request(BillingRpc.ledger, { account_id: a.id, limit: 2 });
    expect(first.data.map((r) => r.amount_millicents)).toEqual([3_000, 2_000]);
    expect(first.has_more).toBe(true);
    const second = await h.request(BillingRpc.ledger, { account_id: a.id, limit: 2, starting_after: first.data[1].id });
    expect(second.data.map((r) => r.amount_millicents)).toEqual([1_000, 100_000]);
    expect(second.has_more).toBe(false);
    for (const cursor of ['x', 'le_0', 'le_9999999999999999999']) {
      expect((await errorOf(h.request(BillingRpc.ledger, { account_id: a.id, starting_after: cursor }))).code).toBe(
        'invalid_request',
      );
    }
  });

  it('answers 404 not_found for an unknown account', async () => {
    expect((await errorOf(h.request(BillingRpc.ledger, { account_id: 'acct_00000000000000000000' }))).code).toBe(
      'not_found',
    );
    expect(
      (await errorOf(h.request(AccountsRpc.credit, { account_id: 'acct_00000000000000000000', amount_cents: 1 }))).code,
    ).toBe('not_found');
  });
});

describe('the monthly cycle', () => {
  it('charges each active number $5 once per month from its provisioning date', async () => {
    const a = await account({ balance_cents: 10_000 });
    const n = await provision(a.id);

    expect((await run(monthsAfter(n, 1, -60_000))).charged).toBe(0);
    expect(await chargesOf(n.id)).toHaveLength(1);

    await run(monthsAfter(n, 1));
    await run(monthsAfter(n, 1, DAY));
    expect((await chargesOf(n.id)).map((c) => c.reference)).toEqual([
      `number_month:${n.id}:0`,
      `number_month:${n.id}:1`,
    ]);

    // A cycle that did not run for two months catches up, one row per period.
    await run(monthsAfter(n, 3, 1));
    expect((await chargesOf(n.id)).map((c) => c.reference.split(':')[2])).toEqual(['0', '1', '2', '3']);
    expect(await balanceCents(a.id)).toBe(10_000 - 4 * 500);
  });

  it('charges a period once when cycles run at the same time', async () => {
    const owners = await Promise.all([1, 2, 3].map(() => account({ balance_cents: 5_000 })));
    const numbers: NumberCreated[] = [];
    for (const owner of owners) for (let i = 0; i < 2; i++) numbers.push(await provision(owner.id));
    const now = monthsAfter(numbers.at(-1)!, 1, 1000);

    const monthRows = () => h.prisma.ledgerEntry.count({ where: { kind: 'number_month' } });
    const before = await monthRows();
    const results = await Promise.all(Array.from({ length: 4 }, () => run(now)));
    for (const n of numbers) expect(await chargesOf(n.id)).toHaveLength(2);
    // Together the runs report exactly the charges they wrote: none twice (other tests' numbers may be due too).
    expect(results.reduce((sum, r) => sum + r.charged, 0)).toBe((await monthRows()) - before);
    expect(await Promise.all(Array.from({ length: 2 }, () => run(now)))).toEqual([
      { charged: 0, past_due: 0, released: 0 },
      { charged: 0, past_due: 0, released: 0 },
    ]);
    for (const owner of owners) expect(await balanceCents(owner.id)).toBe(5_000 - 4 * 500);
  });

  it('makes a number past_due when its charge cannot be covered, pausing the agent', async () => {
    const a = await account({ balance_cents: 500 });
    const n = await provision(a.id);
    const result = await run(monthsAfter(n, 1, 1000));
    expect(result.past_due).toBeGreaterThanOrEqual(1);
    expect(await statusOf(a.id, n.id)).toBe('past_due');
    expect(await balanceCents(a.id)).toBe(0);
    const updated = await eventually(
      () => eventsOf(n.id, 'number.updated'),
      (e) => e.length > 0,
    );
    expect(updated.at(-1)!.data).toMatchObject({ status: 'past_due', answering: false });
    // Running again does not charge or count it again.
    await run(monthsAfter(n, 1, 2000));
    expect(await chargesOf(n.id)).toHaveLength(1);
  });

  it('releases a past_due number after 7 days unpaid, at the provider too', async () => {
    const a = await account({ balance_cents: 500 });
    const n = await provision(a.id);
    const dueRun = monthsAfter(n, 1, 1000);
    await run(dueRun);

    await run(new Date(dueRun.getTime() + 7 * DAY - 1000));
    expect(await statusOf(a.id, n.id)).toBe('past_due');

    const result = await run(new Date(dueRun.getTime() + 7 * DAY));
    expect(result.released).toBeGreaterThanOrEqual(1);
    expect(await statusOf(a.id, n.id)).toBe('released');
    expect(
      (await h.prisma.simulatedProviderNumber.findUniqueOrThrow({ where: { phone_number: n.phone_number } })).status,
    ).toBe('released');
    const released = await eventually(
      () => eventsOf(n.id, 'number.released'),
      (e) => e.length > 0,
    );
    expect(released[0].data).toMatchObject({ status: 'released', answering: false });
    // Released: billing stopped.
    await run(monthsAfter(n, 3, 1000));
    expect(await chargesOf(n.id)).toHaveLength(1);
  });

  it('brings a past_due number back to active as soon as a credit covers what it owes', async () => {
    const a = await account({ balance_cents: 500 });
    const n = await provision(a.id);
    await run(monthsAfter(n, 1, 1000));
    expect(await statusOf(a.id, n.id)).toBe('past_due');

    // Not enough: stays past_due, nothing charged.
    await expect(h.request(AccountsRpc.credit, { account_id: a.id, amount_cents: 300 })).resolves.toEqual({
      balance_cents: 300,
    });
    expect(await statusOf(a.id, n.id)).toBe('past_due');

    await expect(h.request(AccountsRpc.credit, { account_id: a.id, amount_cents: 300 })).resolves.toEqual({
      balance_cents: 100,
    });
    expect(await statusOf(a.id, n.id)).toBe('active');
    expect((await chargesOf(n.id)).map((c) => c.reference)).toEqual([
      `number_month:${n.id}:0`,
      `number_month:${n.id}:1`,
    ]);
    const updated = await eventually(
      () => eventsOf(n.id, 'number.updated'),
      (e) => e.some((x) => x.data.status === 'active'),
    );
    expect(updated.at(-1)!.data).toMatchObject({ status: 'active', answering: true });
    // The next charge is a month after the one it paid, counted from provisioning.
    expect((await run(monthsAfter(n, 2, -1000))).charged).toBe(0);
  });

  it('releasing a number stops its billing without a refund', async () => {
    const a = await account({ balance_cents: 5_000 });
    const n = await provision(a.id);
    await h.request(NumbersRpc.release, { id: n.id }, a.id);
    await run(monthsAfter(n, 2, 1000));
    expect(await chargesOf(n.id)).toHaveLength(1);
    expect(await balanceCents(a.id)).toBe(4_500);
  });

  it('refuses a run whose now is not a date-time with 400 invalid_request', async () => {
    expect((await errorOf(h.request(BillingRpc.runCycle, { now: 'tomorrow' }))).code).toBe('invalid_request');
  });
});

describe('talk time', () => {
  async function billedCall(tier: 'starter' | 'growth' | 'scale', seconds: number) {
    const a = await account({ balance_cents: 10_000, tier });
    const n = await provision(a.id);
    const before = await balanceMillicents(a.id);
    const call = callCompleted({ account_id: a.id, number_id: n.id, duration_sec: seconds });
    await h.publishCallCompleted(call);
    await eventually(
      () => balanceMillicents(a.id),
      (b) => b !== before,
    );
    return { a, n, call, charged: before - (await balanceMillicents(a.id)) };
  }

  it.each([
    ['starter', 60, 49_000n],
    ['growth', 60, 39_000n],
    ['scale', 60, 29_000n],
    ['starter', 61, 49_817n],
    ['scale', 1, 483n],
  ] as const)('bills a %s call of %i s by the second (%i millicents)', async (tier, seconds, expected) => {
    const { a, n, call, charged } = await billedCall(tier, seconds);
    expect(charged).toBe(expected);
    // The account's own tier picked the row's description too, and the balance is still the ledger's sum.
    const row = await h.prisma.ledgerEntry.findUniqueOrThrow({ where: { reference: `talk_time:${call.call_sid}` } });
    const rate = { starter: 49, growth: 39, scale: 29 }[tier];
    expect(row).toMatchObject({ kind: 'talk_time', amount_millicents: -expected });
    expect(row.description).toBe(`Call ${call.call_sid} on ${n.id}: ${seconds} s at ${rate}¢/min (${tier})`);
    const { balance, ledgerSum } = await balanceAndLedgerSum(h.prisma, a.id);
    expect(balance).toBe(ledgerSum);
  });

  it('bills a call once however often it is delivered', async () => {
    const { a, n, call } = await billedCall('starter', 120);
    const after = await balanceMillicents(a.id);
    await h.publishCallCompleted(call); // the same call, under a new envelope id (a republished event)
    await h.publishCallCompleted(call);
    const marker = callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 });
    await h.publishCallCompleted(marker); // once this is billed, the replays before it were handled
    await eventually(
      () => balanceMillicents(a.id),
      (b) => b === after - 49_000n,
    );
    expect(await balanceMillicents(a.id)).toBe(after - 49_000n);
    expect(await h.prisma.ledgerEntry.count({ where: { reference: `talk_time:${call.call_sid}` } })).toBe(1);
  });

  it('pauses the agent when the month’s allowance is used up and resumes on a bigger tier', async () => {
    const a = await account({ balance_cents: 50_000, tier: 'starter' });
    const n = await provision(a.id);
    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 199 * 60 }));
    await eventually(
      () => h.prisma.talkTimeUsage.findMany({ where: { account_id: a.id } }),
      (rows) => rows.length > 0,
    );
    expect((await h.prisma.account.findUniqueOrThrow({ where: { id: a.id } })).allowance_exhausted_period).toBeNull();

    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 }));
    const paused = await eventually(
      () => eventsOf(n.id, 'number.updated'),
      (e) => e.length > 0,
    );
    expect(paused.at(-1)!.data).toMatchObject({ status: 'active', answering: false });
    expect(await statusOf(a.id, n.id)).toBe('active');

    await h.request(AccountsRpc.update, { account_id: a.id, tier: 'scale' });
    const resumed = await eventually(
      () => eventsOf(n.id, 'number.updated'),
      (e) => e.length > 1,
    );
    expect(resumed.at(-1)!.data).toMatchObject({ status: 'active', answering: true });
  });

  it('renews the allowance in the next calendar month', async () => {
    const a = await account({ balance_cents: 50_000, tier: 'starter' });
    const n = await provision(a.id);
    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 200 * 60 }));
    await eventually(
      () => eventsOf(n.id, 'number.updated'),
      (e) => e.length > 0,
    );
    const now = new Date();
    await run(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 1)));
    const resumed = await eventually(
      () => eventsOf(n.id, 'number.updated'),
      (e) => e.length > 1,
    );
    expect(resumed.at(-1)!.data.answering).toBe(true);
  });

  it('counts a call reported late toward the month it started in, not the current month', async () => {
    const a = await account({ balance_cents: 50_000, tier: 'starter' });
    const n = await provision(a.id);
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
    await h.publishCallCompleted(
      callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 200 * 60, started_at: lastMonth.toISOString() }),
    );
    const usage = await eventually(
      () => h.prisma.talkTimeUsage.findMany({ where: { account_id: a.id } }),
      (rows) => rows.length > 0,
    );
    expect(usage.map((row) => [row.period, row.seconds])).toEqual([[allowancePeriod(lastMonth), 12_000n]]);
    // Last month's allowance is used up, this month's is not: the agent keeps answering.
    expect((await h.prisma.account.findUniqueOrThrow({ where: { id: a.id } })).allowance_exhausted_period).toBeNull();
    expect(await eventsOf(n.id, 'number.updated')).toEqual([]);
  });

  describe('in one statement (ADR 0013)', () => {
    const period = allowancePeriod(new Date());
    const charge = (accountId: string, seconds: number, callPeriod = period) => ({
      accountId,
      reference: `talk_time:CAquick${Math.random().toString(36).slice(2)}`,
      period: callPeriod,
      seconds,
      byTier: {
        starter: { amountMillicents: 1_000n, description: 'starter' },
        growth: { amountMillicents: 1_000n, description: 'growth' },
        scale: { amountMillicents: 1_000n, description: 'scale' },
      },
    });
    const quick = (c: ReturnType<typeof charge>) =>
      h.app.get(TalkTimeRepository).chargeUnlessAnsweringChanges(c, period);
    const state = async (accountId: string) => ({
      usage: (await h.prisma.talkTimeUsage.findMany({ where: { account_id: accountId } })).map((u) => u.seconds),
      ...(await balanceAndLedgerSum(h.prisma, accountId)),
    });

    it('commits a charge that leaves answering as it was, and agrees with the allowance at its edge', async () => {
      const a = await account({ balance_cents: 10_000, tier: 'starter' }); // 200 minutes: 12,000 s
      expect(await quick(charge(a.id, 11_999))).toMatchObject({ kind: 'charged', usageSeconds: 11_999n });
      const before = await state(a.id);
      // The second that uses the allowance up changes answering: the statement keeps nothing.
      expect(await quick(charge(a.id, 1))).toEqual({ kind: 'answering_changes' });
      expect(await state(a.id)).toEqual(before);
      // Billed in full instead (the consumer's path), which marks the month used up; then a call changes nothing.
      const n = await provision(a.id);
      await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 1 }));
      await eventually(
        async () => (await h.prisma.account.findUniqueOrThrow({ where: { id: a.id } })).allowance_exhausted_period,
        (exhausted) => exhausted === period,
      );
      expect(await quick(charge(a.id, 60))).toMatchObject({ kind: 'charged', usageSeconds: 12_060n });
      // A bigger tier would renew the allowance: the next charge leaves that to the full path.
      await h.prisma.account.update({ where: { id: a.id }, data: { tier: 'growth' } });
      expect(await quick(charge(a.id, 60))).toEqual({ kind: 'answering_changes' });
    });

    it('leaves a call of another month, and only such a call, to the full path', async () => {
      const a = await account({ balance_cents: 10_000, tier: 'scale' }); // no allowance to use up
      expect(await quick(charge(a.id, 10_000_000))).toMatchObject({ kind: 'charged' });
      expect(await quick(charge(a.id, 60, '2000-01'))).toEqual({ kind: 'answering_changes' });
      const same = charge(a.id, 60);
      expect(await quick(same)).toMatchObject({ kind: 'charged' });
      expect(await quick(same)).toMatchObject({ kind: 'duplicate' });
      expect(await quick(charge('acct_zzzzzzzzzzzzzzzzzzzz', 60))).toEqual({ kind: 'unknown_account' });
    });
  });

  it('ignores a call of an unknown account without blocking the ones after it', async () => {
    const a = await account({ balance_cents: 10_000 });
    const n = await provision(a.id);
    await h.publishCallCompleted(callCompleted({ account_id: 'acct_zzzzzzzzzzzzzzzzzzzz', number_id: n.id }));
    const before = await balanceMillicents(a.id);
    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 }));
    expect(
      await eventually(
        () => balanceMillicents(a.id),
        (b) => b !== before,
      ),
    ).toBe(before - 49_000n);
  });
});

describe('auto-top-up', () => {
  it('is set, shown and cleared by the operator, within $5 to $500', async () => {
    const a = await account();
    const set = await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 2_000 },
    });
    expect(set.auto_top_up).toEqual({ threshold_cents: 1_000, amount_cents: 2_000 });
    expect((await h.request(AccountsRpc.get, { account_id: a.id })).auto_top_up).toEqual({
      threshold_cents: 1_000,
      amount_cents: 2_000,
    });
    expect((await h.request(AccountsRpc.update, { account_id: a.id, tier: 'growth' })).auto_top_up).toEqual({
      threshold_cents: 1_000,
      amount_cents: 2_000,
    });
    expect((await h.request(AccountsRpc.update, { account_id: a.id, auto_top_up: null })).auto_top_up).toBeNull();
    for (const amount of [499, 50_001]) {
      const error = await errorOf(
        h.request(AccountsRpc.update, { account_id: a.id, auto_top_up: { threshold_cents: 0, amount_cents: amount } }),
      );
      expect(error.code).toBe('invalid_request');
    }
  });

  it('tops up once when a charge drops the balance below the threshold', async () => {
    const a = await account({ balance_cents: 1_200 });
    await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 2_500 },
    });
    await provision(a.id); // 12.00 -> 7.00, below 10.00
    expect(await balanceCents(a.id)).toBe(700 + 2_500);
    const rows = await h.prisma.ledgerEntry.findMany({ where: { account_id: a.id, kind: 'auto_top_up' } });
    expect(rows).toHaveLength(1);
    expect(rows[0].amount_millicents).toBe(2_500_000n);
    expect(await h.app.get(SimulatedPaymentAdapter).chargesOf(a.id)).toEqual([
      expect.objectContaining({ amount_cents: 2_500, status: 'succeeded' }),
    ]);
  });

  it('tops up when a call’s charge drops the balance below the threshold', async () => {
    const a = await account({ balance_cents: 1_530 });
    const n = await provision(a.id); // 10.30 left
    await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 2_000 },
    });
    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 30 })); // 0.245: 10.055 left
    await eventually(
      () => balanceMillicents(a.id),
      (b) => b === 1_030_000n - 24_500n,
    );
    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 })); // 0.49: 9.565 left
    await eventually(
      () => h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'auto_top_up' } }),
      (count) => count === 1,
    );
    expect(await h.prisma.autoTopUpAttempt.count({ where: { account_id: a.id } })).toBe(1);
    expect(await balanceMillicents(a.id)).toBe(1_030_000n - 24_500n - 49_000n + 2_000_000n);
  });

  it('logs a declined payment, charges nothing, and tries again at the next drop', async () => {
    const a = await account({ balance_cents: 1_200 });
    const n = await provision(a.id); // 7.00 left
    await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 1_000 },
    });
    await h.request(BillingRpc.setPaymentFaults, { charge_failures: 1 });

    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 }));
    await eventually(
      () => h.prisma.autoTopUpAttempt.findMany({ where: { account_id: a.id } }),
      (rows) => rows.some((r) => r.status === 'failed'),
    );
    expect(await h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'auto_top_up' } })).toBe(0);

    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 }));
    await eventually(
      () => h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'auto_top_up' } }),
      (count) => count === 1,
    );
    const charges = await h.app.get(SimulatedPaymentAdapter).chargesOf(a.id);
    expect(charges.map((c) => c.status)).toEqual(['failed', 'succeeded']);
    expect(await balanceMillicents(a.id)).toBe(700_000n - 2n * 49_000n + 1_000_000n);
  });

  it('tops up before a monthly charge it would otherwise miss, and the number stays active', async () => {
    const a = await account({ balance_cents: 500 });
    const n = await provision(a.id); // 0 left
    await h.request(AccountsRpc.update, { account_id: a.id, auto_top_up: { threshold_cents: 0, amount_cents: 1_000 } });
    const result = await run(monthsAfter(n, 1, 1000));
    expect(await statusOf(a.id, n.id)).toBe('active');
    expect(result.past_due).toBe(0);
    expect(await balanceCents(a.id)).toBe(500);
  });

  it('never tops up twice for one drop, even when calls are billed at once', async () => {
    const a = await account({ balance_cents: 1_200 });
    const n = await provision(a.id);
    await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 50_000 },
    });
    const calls = Array.from({ length: 6 }, () =>
      callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 }),
    );
    await Promise.all(calls.map((call) => h.publishCallCompleted(call)));
    await eventually(
      () => h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'talk_time' } }),
      (count) => count === 6,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'auto_top_up' } })).toBe(1);
  });
});

describe('after all of the above', () => {
  it('every account’s balance equals the sum of its ledger', async () => {
    expect(accounts.length).toBeGreaterThan(10);
    for (const id of accounts) {
      const { balance, ledgerSum } = await balanceAndLedgerSum(h.prisma, id);
      expect({ id, balance }).toEqual({ id, balance: ledgerSum });
    }
  });
});
