import type { CallUpdatedData, EventEnvelope, Tier } from '@switchboard/contracts';
import { RetryLater } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import type { LedgerPosting, LedgerRepository, LockedAccount } from '../ledger/ledger.repository';
import { talkTimeCharge } from '../money/money';
import type { NumberLifecycle } from '../numbers/number-lifecycle';
import type { NumbersOutbox } from '../outbox/numbers-outbox';
import type { NumbersBillingTransactions, Tx } from '../prisma/numbers-billing-prisma';
import { TalkTimeAllowance } from './allowance';
import { talkTimeDescription } from './talk-time-adjustment';
import { MAX_NOT_BILLED_DELIVERIES, TalkTimeAdjustmentService } from './talk-time-adjustment.service';
import type { TalkTimeBilling } from './talk-time-billing.port';
import type { TalkTimeRepository } from './talk-time.repository';

const ACCOUNT = 'acct_0123456789abcdefghij';
// Calls of the current month: the allowance is judged for it.
const STARTED_AT = new Date().toISOString();
const PERIOD = STARTED_AT.slice(0, 7);

/**
 * The ledger, the usage and the account as the repositories keep them, in memory: a posting is unique by reference
 * and moves the balance; the month's usage is a sum. Enough to follow the service's decisions without PostgreSQL
 * (talk-time-adjustment.int-spec.ts runs the same against it).
 */
function world(account: Partial<LockedAccount> = {}) {
  const locked: LockedAccount = {
    id: ACCOUNT,
    balance_millicents: 10_000_000n,
    tier: 'starter',
    number_limit: 5,
    auto_top_up_threshold_cents: null,
    auto_top_up_amount_cents: null,
    allowance_exhausted_period: null,
    balance_low_since: null,
    ...account,
  };
  const state = {
    account: locked,
    rows: new Map<string, LedgerPosting>(),
    usage: new Map<string, bigint>(),
  };
  const tx = { account: { update: jest.fn(async () => undefined) } } as unknown as Tx;
  const ledger = {
    lockAccount: jest.fn(async (_tx: Tx, id: string) => (id === ACCOUNT ? { ...state.account } : null)),
    post: jest.fn(async (_tx: Tx, posting: LedgerPosting) => {
      if (state.rows.has(posting.reference)) return null;
      state.rows.set(posting.reference, posting);
      state.account.balance_millicents += posting.amountMillicents;
      return state.account.balance_millicents;
    }),
  };
  const talkTime = {
    billed: jest.fn(async (_tx: Tx, reference: string) => {
      const row = state.rows.get(reference);
      return row
        ? { account_id: row.accountId, amount_millicents: row.amountMillicents, description: row.description }
        : null;
    }),
    addUsage: jest.fn(async (_tx: Tx, _account: string, period: string, seconds: bigint) => {
      const total = (state.usage.get(period) ?? 0n) + seconds;
      state.usage.set(period, total < 0n ? 0n : total);
      return state.usage.get(period)!;
    }),
  };
  const billing: TalkTimeBilling = {
    allowancePeriod: (at) => at.toISOString().slice(0, 7),
    belowTopUpThreshold: jest.fn(() => false),
    afterCharge: jest.fn(async () => undefined),
  };
  const lifecycle = { answeringChanged: jest.fn(async () => 1) };
  const outbox = { kick: jest.fn() };
  const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn() };
  const transactions = { run: (work: (tx: Tx) => Promise<unknown>) => work(tx) };
  const service = new TalkTimeAdjustmentService(
    transactions as unknown as NumbersBillingTransactions,
    talkTime as unknown as TalkTimeRepository,
    ledger as unknown as LedgerRepository,
    new TalkTimeAllowance(lifecycle as unknown as NumberLifecycle, billing),
    outbox as unknown as NumbersOutbox,
    billing,
    logger as unknown as Logger,
  );

  /** The call billed as `bill` bills it: its row at the account's tier, its seconds in its month's usage. */
  const bill = (callSid: string, seconds: number) => {
    const tier = state.account.tier as Tier;
    const amount = -talkTimeCharge(seconds, tier);
    state.rows.set(`talk_time:${callSid}`, {
      accountId: ACCOUNT,
      kind: 'talk_time',
      reference: `talk_time:${callSid}`,
      amountMillicents: amount,
      description: talkTimeDescription(callSid, 'num_3', seconds, tier),
    });
    state.account.balance_millicents += amount;
    state.usage.set(PERIOD, (state.usage.get(PERIOD) ?? 0n) + BigInt(seconds));
  };
  const adjustments = () => [...state.rows.values()].filter((r) => r.kind === 'talk_time_adjustment');
  return { state, service, bill, adjustments, billing, lifecycle, outbox, logger, tx };
}

let calls = 0;
function updated(previous: number, corrected: number, overrides: Partial<CallUpdatedData> = {}) {
  calls += 1;
  const data: CallUpdatedData = {
    call_sid: `CA${String(calls).padStart(32, '0')}`,
    account_id: ACCOUNT,
    number_id: 'num_3',
    phone_number: '+14155550100',
    caller: '+12125550142',
    direction: 'inbound',
    status: 'completed',
    outcome: 'order',
    duration_sec: corrected,
    started_at: STARTED_AT,
    has_recording: false,
    has_transcript: false,
    previous_status: 'incomplete',
    previous_duration_sec: previous,
    ...overrides,
  };
  const event: EventEnvelope<CallUpdatedData> = {
    id: `evt_${calls}`,
    type: 'call.updated',
    occurred_at: STARTED_AT,
    correlation_id: data.call_sid,
    causation_id: null,
    data,
  };
  return event;
}

describe('TalkTimeAdjustmentService', () => {
  it('charges a longer call the difference once, and counts its seconds in the month', async () => {
    const w = world();
    const event = updated(300, 420);
    w.bill(event.data.call_sid, 300);
    expect(await w.service.adjust(event)).toBe('adjusted');
    expect(w.adjustments()).toEqual([
      expect.objectContaining({ kind: 'talk_time_adjustment', amountMillicents: -98_000n }),
    ]);
    expect(w.state.account.balance_millicents).toBe(10_000_000n - talkTimeCharge(420, 'starter'));
    expect(w.state.usage.get(PERIOD)).toBe(420n);
    // Delivered again: nothing more.
    expect(await w.service.adjust(event)).toBe('duplicate');
    expect(w.adjustments()).toHaveLength(1);
    expect(w.state.usage.get(PERIOD)).toBe(420n);
  });

  it('credits a shorter call and takes its seconds back', async () => {
    const w = world();
    const event = updated(600, 240);
    w.bill(event.data.call_sid, 600);
    expect(await w.service.adjust(event)).toBe('adjusted');
    expect(w.adjustments()[0].amountMillicents).toBe(talkTimeCharge(600, 'starter') - talkTimeCharge(240, 'starter'));
    expect(w.state.account.balance_millicents).toBe(10_000_000n - talkTimeCharge(240, 'starter'));
    expect(w.state.usage.get(PERIOD)).toBe(240n);
  });

  it('posts nothing for an unchanged duration, however often it is delivered', async () => {
    const w = world();
    const event = updated(300, 300);
    w.bill(event.data.call_sid, 300);
    expect(await w.service.adjust(event)).toBe('nothing_to_adjust');
    expect(await w.service.adjust(event)).toBe('nothing_to_adjust');
    expect(w.adjustments()).toEqual([]);
    expect(w.state.usage.get(PERIOD)).toBe(300n);
  });

  it('prices the difference at the tier the call was billed at, after the account changed tier', async () => {
    const w = world();
    const event = updated(60, 120);
    w.bill(event.data.call_sid, 60);
    w.state.account.tier = 'scale';
    await w.service.adjust(event);
    expect(w.adjustments()[0].amountMillicents).toBe(-49_000n);
  });

  it('leaves answering alone for a correction within the allowance', async () => {
    const w = world();
    const event = updated(6_000, 6_120);
    w.bill(event.data.call_sid, 6_000);
    await w.service.adjust(event);
    expect(w.state.usage.get(PERIOD)).toBe(6_120n);
    expect(w.lifecycle.answeringChanged).not.toHaveBeenCalled();
    expect(w.outbox.kick).not.toHaveBeenCalled();
  });

  it('uses the allowance up when the longer call crosses its edge', async () => {
    const w = world(); // starter: 12 000 s a month
    const event = updated(11_940, 12_060);
    w.bill(event.data.call_sid, 11_940);
    await w.service.adjust(event);
    expect(w.state.usage.get(PERIOD)).toBe(12_060n);
    expect(w.tx.account.update).toHaveBeenCalledWith({
      where: { id: ACCOUNT },
      data: { allowance_exhausted_period: PERIOD },
    });
    expect(w.lifecycle.answeringChanged).toHaveBeenCalledTimes(1);
    expect(w.outbox.kick).toHaveBeenCalledTimes(1);
  });

  it('renews the allowance when the shorter call brings the month back under its edge', async () => {
    const w = world({ allowance_exhausted_period: PERIOD }); // used up by the call as billed
    const event = updated(12_100, 11_000);
    w.bill(event.data.call_sid, 12_100);
    await w.service.adjust(event);
    expect(w.state.usage.get(PERIOD)).toBe(11_000n);
    expect(w.tx.account.update).toHaveBeenCalledWith({
      where: { id: ACCOUNT },
      data: { allowance_exhausted_period: null },
    });
    expect(w.lifecycle.answeringChanged).toHaveBeenCalledTimes(1);
  });

  it('checks the balance after an adjustment as after a charge', async () => {
    const w = world();
    (w.billing.belowTopUpThreshold as jest.Mock).mockReturnValue(true);
    const event = updated(60, 600);
    w.bill(event.data.call_sid, 60);
    await w.service.adjust(event);
    expect(w.billing.afterCharge).toHaveBeenCalledWith(ACCOUNT, {
      correlationId: event.correlation_id,
      causationId: event.id,
    });
    (w.billing.afterCharge as jest.Mock).mockClear();
    expect(await w.service.adjust(event)).toBe('duplicate');
    expect(w.billing.afterCharge).not.toHaveBeenCalled();
  });

  it('waits for a call not billed yet, for a bounded number of deliveries, then fails it to the dead letters', async () => {
    const w = world();
    const event = updated(300, 420);
    await expect(w.service.adjust(event, 1)).rejects.toBeInstanceOf(RetryLater);
    await expect(w.service.adjust(event, MAX_NOT_BILLED_DELIVERIES - 1)).rejects.toBeInstanceOf(RetryLater);
    const failure = w.service.adjust(event, MAX_NOT_BILLED_DELIVERIES);
    await expect(failure).rejects.not.toBeInstanceOf(RetryLater);
    await expect(failure).rejects.toThrow(`call ${event.data.call_sid}, never billed (300 s then, 420 s now)`);
    expect(w.adjustments()).toEqual([]);
  });

  it('corrects a call once billed after all, on a later delivery', async () => {
    const w = world();
    const event = updated(300, 420);
    await expect(w.service.adjust(event, 1)).rejects.toBeInstanceOf(RetryLater);
    w.bill(event.data.call_sid, 300);
    expect(await w.service.adjust(event, 2)).toBe('adjusted');
    expect(w.state.account.balance_millicents).toBe(10_000_000n - talkTimeCharge(420, 'starter'));
  });

  it('bills the whole corrected call when it was closed at 0 s (billed nothing, no row)', async () => {
    const w = world({ tier: 'growth' });
    const event = updated(0, 90);
    expect(await w.service.adjust(event)).toBe('adjusted');
    expect(w.adjustments()[0].amountMillicents).toBe(-talkTimeCharge(90, 'growth'));
    expect(w.state.usage.get(PERIOD)).toBe(90n);
  });

  it('acknowledges a call of an unknown account with a warning', async () => {
    const w = world();
    expect(await w.service.adjust(updated(300, 420, { account_id: 'acct_zzzzzzzzzzzzzzzzzzzz' }))).toBe(
      'unknown_account',
    );
    expect(w.logger.warn).toHaveBeenCalled();
  });

  it('refuses to guess at a talk-time row that does not say what it billed', async () => {
    const w = world();
    const event = updated(300, 420);
    w.bill(event.data.call_sid, 300);
    w.state.rows.get(`talk_time:${event.data.call_sid}`)!.description = 'hand-written';
    await expect(w.service.adjust(event)).rejects.toThrow(/cannot be corrected/);
    expect(w.adjustments()).toEqual([]);
  });
});
