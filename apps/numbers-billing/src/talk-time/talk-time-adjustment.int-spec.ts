import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import {
  AccountsRpc,
  BillingRpc,
  CallUpdatedEvent,
  NumbersRpc,
  STREAMS,
  type CallCompletedData,
  type CallUpdatedData,
  type EventEnvelope,
  type Tier,
} from '@switchboard/contracts';
import { eventSubject, streamName } from '@switchboard/messaging';
import { createAccount } from '../../test/factories/account.factory';
import { callCompleted, numberCreate } from '../../test/factories/number.factory';
import {
  balanceAndLedgerSum,
  eventually,
  startNumbersBilling,
  type NumbersBillingHarness,
} from '../../test/support/numbers-billing-harness';
import { allowancePeriod } from '../billing/billing-periods';
import { talkTimeCharge } from '../money/money';
import { TALK_TIME_ADJUSTMENTS_DURABLE } from './talk-time-adjustment.consumer';

jest.setTimeout(90_000);

let h: NumbersBillingHarness;
beforeAll(async () => {
  h = await startNumbersBilling();
});
afterAll(() => h?.stop());

const balance = async (accountId: string) => (await balanceAndLedgerSum(h.prisma, accountId)).balance;

/** Publishes a `call.updated` to JetStream as calls-media would (message id = envelope id); its stream sequence. */
async function publishCallUpdated(data: CallUpdatedData, envelopeId: string = randomUUID()): Promise<number> {
  const envelope: EventEnvelope<CallUpdatedData> = {
    id: envelopeId,
    type: CallUpdatedEvent.type,
    occurred_at: new Date().toISOString(),
    correlation_id: data.call_sid,
    causation_id: null,
    data,
  };
  const ack = await jetstream(h.nc).publish(eventSubject(h.config, CallUpdatedEvent.type), JSON.stringify(envelope), {
    msgID: envelopeId,
  });
  return ack.seq;
}

/** The call as it was closed (`incomplete`, the duration known then) and as its late end report corrected it. */
function correction(call: CallCompletedData, correctedSeconds: number): CallUpdatedData {
  return {
    ...call,
    status: 'completed',
    duration_sec: correctedSeconds,
    previous_status: 'incomplete',
    previous_duration_sec: call.duration_sec,
  };
}

async function adjustmentConsumer() {
  const jsm = await jetstreamManager(h.nc);
  return jsm.consumers.info(streamName(h.config, STREAMS.calls.name), TALK_TIME_ADJUSTMENTS_DURABLE);
}

/** Resolves once the adjustment consumer has handled (and acknowledged) every `call.updated` published so far. */
async function adjustmentsSettled(): Promise<void> {
  const settled = await eventually(adjustmentConsumer, (info) => info.num_pending === 0 && info.num_ack_pending === 0);
  expect({ pending: settled.num_pending, unacknowledged: settled.num_ack_pending }).toEqual({
    pending: 0,
    unacknowledged: 0,
  });
}

/** An account of `tier` with a number, and a call of it closed as `incomplete` after `seconds`, billed. */
async function billedIncompleteCall(tier: Tier, seconds: number, balanceCents = 10_000) {
  const a = await createAccount(h, { balance_cents: balanceCents, tier });
  const n = await h.request(NumbersRpc.provision, numberCreate(), a.id);
  const start = await balance(a.id);
  const call = callCompleted({ account_id: a.id, number_id: n.id, status: 'incomplete', duration_sec: seconds });
  await h.publishCallCompleted(call);
  await eventually(
    () => balance(a.id),
    (b) => b !== start,
  );
  expect(await balance(a.id)).toBe(start - talkTimeCharge(seconds, tier));
  return { a, n, call, start };
}

const rowsOf = (callSid: string) =>
  h.prisma.ledgerEntry.findMany({ where: { reference: { endsWith: `:${callSid}` } }, orderBy: { id: 'asc' } });

describe('a billed call corrected by its late end report (call.updated)', () => {
  it('posts exactly one adjustment, after which the call has cost its corrected charge; a redelivery changes nothing', async () => {
    const { a, n, call, start } = await billedIncompleteCall('starter', 300);
    const update = correction(call, 420);
    const envelopeId = randomUUID();
    await publishCallUpdated(update, envelopeId);
    await eventually(
      () => rowsOf(call.call_sid),
      (rows) => rows.length === 2,
    );

    const rows = await rowsOf(call.call_sid);
    expect(rows.map((r) => [r.kind, r.reference, r.amount_millicents])).toEqual([
      ['talk_time', `talk_time:${call.call_sid}`, -245_000n],
      ['talk_time_adjustment', `talk_time_adjustment:${call.call_sid}`, -98_000n],
    ]);
    expect(rows[1].description).toBe(
      `Call ${call.call_sid} on ${n.id} corrected: 420 s, not the 300 s billed (+120 s at 49¢/min, starter)`,
    );
    const after = await balanceAndLedgerSum(h.prisma, a.id);
    expect(after.balance).toBe(start - talkTimeCharge(420, 'starter'));
    expect(after.balance).toBe(after.ledgerSum);
    const usage = () => h.prisma.talkTimeUsage.findMany({ where: { account_id: a.id } });
    expect((await usage()).map((u) => [u.period, u.seconds])).toEqual([[allowancePeriod(new Date()), 420n]]);

    // The ledger as the console and the operator read it names the adjustment for what it is.
    const page = await h.request(BillingRpc.ledger, { account_id: a.id });
    expect(page.data[0]).toMatchObject({
      kind: 'talk_time_adjustment',
      reference: `talk_time_adjustment:${call.call_sid}`,
      amount_millicents: -98_000,
    });

    // Redelivered: republished under a new envelope id, and the same one again.
    await publishCallUpdated(update);
    await publishCallUpdated(update, envelopeId);
    await adjustmentsSettled();
    expect(await rowsOf(call.call_sid)).toHaveLength(2);
    expect(await balanceAndLedgerSum(h.prisma, a.id)).toEqual(after);
    expect((await usage()).map((u) => u.seconds)).toEqual([420n]);
  });

  it('credits a call that was shorter, at the tier it was billed at even after a change of tier', async () => {
    const { a, call, start } = await billedIncompleteCall('growth', 600);
    await h.request(AccountsRpc.update, { account_id: a.id, tier: 'scale' });
    await publishCallUpdated(correction(call, 240));
    await eventually(
      () => rowsOf(call.call_sid),
      (rows) => rows.length === 2,
    );
    expect((await rowsOf(call.call_sid))[1].amount_millicents).toBe(234_000n);
    expect(await balance(a.id)).toBe(start - talkTimeCharge(240, 'growth'));
  });

  it('posts nothing when the corrected duration is the one billed', async () => {
    const { a, call, start } = await billedIncompleteCall('starter', 300);
    await publishCallUpdated(correction(call, 300));
    await publishCallUpdated(correction(call, 300));
    await adjustmentsSettled();
    expect(await rowsOf(call.call_sid)).toHaveLength(1);
    expect(await balance(a.id)).toBe(start - talkTimeCharge(300, 'starter'));
  });

  it('pauses the agent when the longer call uses the month’s allowance up', async () => {
    const { a, n, call } = await billedIncompleteCall('starter', 11_940); // 200 minutes: 12 000 s
    expect((await h.prisma.account.findUniqueOrThrow({ where: { id: a.id } })).allowance_exhausted_period).toBeNull();
    await publishCallUpdated(correction(call, 12_060));
    const paused = await eventually(
      async () => (await h.numberEvents()).filter((e) => e.data.number_id === n.id && e.type === 'number.updated'),
      (events) => events.length > 0,
    );
    expect(paused.at(-1)!.data).toMatchObject({ status: 'active', answering: false });
    expect((await h.prisma.account.findUniqueOrThrow({ where: { id: a.id } })).allowance_exhausted_period).toBe(
      allowancePeriod(new Date()),
    );
  });

  it('waits for a call corrected before it is billed, then adjusts it once', async () => {
    const a = await createAccount(h, { balance_cents: 10_000, tier: 'starter' });
    const n = await h.request(NumbersRpc.provision, numberCreate(), a.id);
    const start = await balance(a.id);
    const call = callCompleted({ account_id: a.id, number_id: n.id, status: 'incomplete', duration_sec: 300 });
    const seq = await publishCallUpdated(correction(call, 420));
    // Handed to the consumer before the call is billed: nothing to correct yet, so it is to be tried again.
    await eventually(adjustmentConsumer, (info) => info.delivered.stream_seq >= seq);
    expect(await rowsOf(call.call_sid)).toEqual([]);
    await h.publishCallCompleted(call);
    const rows = await eventually(
      () => rowsOf(call.call_sid),
      (found) => found.length === 2,
      20_000,
    );
    expect(rows.map((r) => r.kind)).toEqual(['talk_time', 'talk_time_adjustment']);
    expect(await balance(a.id)).toBe(start - talkTimeCharge(420, 'starter'));
  });

  it('tops up when the adjustment drops the balance below the threshold, as a charge does', async () => {
    const { a, call } = await billedIncompleteCall('starter', 60, 1_600); // 16.00 - 5.00 - 0.49 = 10.51
    await h.request(AccountsRpc.update, {
      account_id: a.id,
      auto_top_up: { threshold_cents: 1_000, amount_cents: 2_000 },
    });
    await publishCallUpdated(correction(call, 180)); // 0.98 more: 9.53, below 10.00
    await eventually(
      () => h.prisma.ledgerEntry.count({ where: { account_id: a.id, kind: 'auto_top_up' } }),
      (count) => count === 1,
    );
    expect(await balance(a.id)).toBe(1_051_000n - 98_000n + 2_000_000n);
  });
});
