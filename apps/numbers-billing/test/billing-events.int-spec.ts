import {
  AccountsRpc,
  BillingRpc,
  NumbersRpc,
  ServiceError,
  type BalanceLowData,
  type TopUpFailedData,
} from '@switchboard/contracts';
import { createAccount } from './factories/account.factory';
import { callCompleted, numberCreate } from './factories/number.factory';
import { eventually, startNumbersBilling, type NumbersBillingHarness } from './support/numbers-billing-harness';
import { NumbersOutbox as NumbersOutboxToken } from '../src/outbox/numbers-outbox';

jest.setTimeout(90_000);

const HOOK = 'https://93.184.215.14/hooks';

let h: NumbersBillingHarness;
beforeAll(async () => {
  h = await startNumbersBilling();
});
afterAll(() => h?.stop());

const provision = (accountId: string, webhookUrl?: string) =>
  h.request(NumbersRpc.provision, numberCreate(webhookUrl ? { webhook_url: webhookUrl } : {}), accountId);
const optIn = (accountId: string, id: string, events: string[]) =>
  h.request(NumbersRpc.update, { id, webhook_events: events }, accountId);
const billingEventsOf = async <T extends BalanceLowData | TopUpFailedData>(accountId: string, type: string) =>
  (await h.billingEvents()).filter((e) => e.type === type && e.data.account_id === accountId) as unknown as {
    id: string;
    data: T;
  }[];
/** Bills a call and waits until the balance moved (the talk-time consumer and auto-top-up run asynchronously). */
async function call(accountId: string, numberId: string, durationSec: number): Promise<void> {
  const before = await h.prisma.ledgerEntry.count({ where: { account_id: accountId } });
  await h.publishCallCompleted(
    callCompleted({ account_id: accountId, number_id: numberId, duration_sec: durationSec }),
  );
  await eventually(
    () => h.prisma.ledgerEntry.count({ where: { account_id: accountId } }),
    (count) => count > before,
  );
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

describe('webhook_events on a number', () => {
  it('is ["call.completed"] by default, takes the opt-in billing events, and refuses unknown ones with 400', async () => {
    const a = await createAccount(h, { balance_cents: 2_000 });
    const n = await provision(a.id, HOOK);
    expect(n.webhook_events).toEqual(['call.completed']);
    const updated = await optIn(a.id, n.id, ['billing.top_up_failed', 'billing.balance_low', 'billing.top_up_failed']);
    expect(updated.webhook_events).toEqual(['call.completed', 'billing.balance_low', 'billing.top_up_failed']);
    expect((await h.request(NumbersRpc.get, { id: n.id }, a.id)).webhook_events).toEqual([
      'call.completed',
      'billing.balance_low',
      'billing.top_up_failed',
    ]);

    for (const bad of [['billing.everything'], 'billing.balance_low', [42]]) {
      const error = await errorOf(h.request(NumbersRpc.update, { id: n.id, webhook_events: bad as string[] }, a.id));
      expect(error.code).toBe('invalid_request');
    }
    expect((await h.request(NumbersRpc.get, { id: n.id }, a.id)).webhook_events).toEqual([
      'call.completed',
      'billing.balance_low',
      'billing.top_up_failed',
    ]);
    expect((await optIn(a.id, n.id, [])).webhook_events).toEqual(['call.completed']);
  });

  it('is taken at creation, and an unknown type there is 400 with nothing bought', async () => {
    const a = await createAccount(h, { balance_cents: 2_000 });
    const n = await h.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: HOOK, webhook_events: ['billing.balance_low'] }),
      a.id,
    );
    expect(n.webhook_events).toEqual(['call.completed', 'billing.balance_low']);
    for (const bad of [['number.everything'], null, 'billing.balance_low']) {
      const error = await errorOf(
        h.request(NumbersRpc.provision, numberCreate({ webhook_events: bad as string[] }), a.id),
      );
      expect(error.code).toBe('invalid_request');
    }
    for (const bad of [null, [null]]) {
      const error = await errorOf(
        h.request(NumbersRpc.update, { id: n.id, webhook_events: bad as unknown as string[] }, a.id),
      );
      expect(error.code).toBe('invalid_request');
    }
    expect(await h.prisma.phoneNumber.count({ where: { account_id: a.id } })).toBe(1);
  });

  it('cannot be changed on another account’s number (404)', async () => {
    const a = await createAccount(h, { balance_cents: 2_000 });
    const b = await createAccount(h, { balance_cents: 2_000 });
    const n = await provision(a.id, HOOK);
    expect((await errorOf(optIn(b.id, n.id, ['billing.balance_low']))).code).toBe('not_found');
  });
});

describe('billing.balance_low', () => {
  it('is published once per crossing below $5 (no auto-top-up), to the opted-in active numbers with a webhook', async () => {
    const a = await createAccount(h, { balance_cents: 1_700 });
    const subscribed = await provision(a.id, HOOK); // 12.00
    await optIn(a.id, subscribed.id, ['billing.balance_low']);
    const other = await provision(a.id, HOOK); // 7.00: not opted in
    const noHook = await provision(a.id); // 2.00: crosses below 5.00 (and is opted in only after)
    await eventually(
      () => billingEventsOf<BalanceLowData>(a.id, 'billing.balance_low'),
      (events) => events.length === 1,
    );
    await optIn(a.id, noHook.id, ['billing.balance_low']);

    const [first] = await billingEventsOf<BalanceLowData>(a.id, 'billing.balance_low');
    expect(first.data).toEqual({
      account_id: a.id,
      number_ids: [subscribed.id],
      balance_cents: 200,
      threshold_cents: 500,
      occurred_at: expect.any(String),
    });
    expect(first.data.number_ids).not.toContain(other.id);

    // Further charges while low: no new event.
    await call(a.id, subscribed.id, 60);
    await call(a.id, subscribed.id, 60);
    await h.app.get(NumbersOutboxToken).drain();
    expect(await billingEventsOf(a.id, 'billing.balance_low')).toHaveLength(1);

    // Back above the threshold (seen at the next charge), then below again: a second crossing, a second event.
    await h.request(AccountsRpc.credit, { account_id: a.id, amount_cents: 449 }); // 1.02 after the two calls, now 5.51
    await call(a.id, subscribed.id, 60); // 5.02: at or above 5.00, the mark is cleared
    const cleared = await eventually(
      () => h.prisma.account.findUniqueOrThrow({ where: { id: a.id } }),
      (row) => row.balance_low_since === null,
    );
    expect({ balance: cleared.balance_millicents, low: cleared.balance_low_since }).toEqual({
      balance: 502_000n,
      low: null,
    });
    await call(a.id, subscribed.id, 60); // 4.53: below again
    const events = await eventually(
      () => billingEventsOf<BalanceLowData>(a.id, 'billing.balance_low'),
      (list) => list.length === 2,
    );
    expect(events[1].data).toEqual(expect.objectContaining({ number_ids: [subscribed.id], threshold_cents: 500 }));
  });

  it('is not published for an account with auto-top-up (it is topped up instead)', async () => {
    const a = await createAccount(h, { balance_cents: 700 });
    await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 2_000 },
    });
    await provision(a.id, HOOK); // 2.00 -> topped up to 22.00
    await eventually(
      () => h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'auto_top_up' } }),
      (count) => count === 1,
    );
    await h.app.get(NumbersOutboxToken).drain();
    expect(await billingEventsOf(a.id, 'billing.balance_low')).toHaveLength(0);
  });
});

describe('billing.top_up_failed', () => {
  it('is published when the payment is declined, with the amount, reason and attempt time, and no card data', async () => {
    const a = await createAccount(h, { balance_cents: 1_200 });
    const n = await provision(a.id, HOOK); // 7.00
    const quiet = await provision(a.id, HOOK); // 2.00
    await optIn(a.id, n.id, ['billing.top_up_failed']);
    await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 1_500 },
    });
    await h.request(BillingRpc.setPaymentFaults, { charge_failures: 1 });

    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 }));
    const [failed] = await eventually(
      () => billingEventsOf<TopUpFailedData>(a.id, 'billing.top_up_failed'),
      (events) => events.length === 1,
    );
    const attempt = await h.prisma.autoTopUpAttempt.findFirstOrThrow({ where: { account_id: a.id, status: 'failed' } });
    expect(failed.data).toEqual({
      account_id: a.id,
      number_ids: [n.id],
      attempt_id: attempt.id,
      amount_cents: 1_500,
      reason: 'declined',
      attempted_at: attempt.created_at.toISOString(),
      occurred_at: attempt.finished_at!.toISOString(),
    });
    expect(failed.data.number_ids).not.toContain(quiet.id);
    expect(JSON.stringify(failed)).not.toMatch(/card|simulated/i);

    // The next drop succeeds: no second failure event.
    await h.publishCallCompleted(callCompleted({ account_id: a.id, number_id: n.id, duration_sec: 60 }));
    await eventually(
      () => h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'auto_top_up' } }),
      (count) => count === 1,
    );
    await h.app.get(NumbersOutboxToken).drain();
    expect(await billingEventsOf(a.id, 'billing.top_up_failed')).toHaveLength(1);
  });
});
