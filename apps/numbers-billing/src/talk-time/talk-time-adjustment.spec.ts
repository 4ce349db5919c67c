import { TIERS } from '@switchboard/contracts';
import { talkTimeCharge } from '../money/money';
import {
  billedTalkTime,
  talkTimeAdjustment,
  talkTimeAdjustmentDescription,
  talkTimeDescription,
  type BilledTalkTime,
} from './talk-time-adjustment';

const SID = 'CA0123456789abcdef0123456789abcdef';

/** A `talk_time` row as `bill` writes it: the charge negative, the description saying what it billed. */
const row = (seconds: number, tier: (typeof TIERS)[number]) => ({
  amount_millicents: -talkTimeCharge(seconds, tier),
  description: talkTimeDescription(SID, 'num_3', seconds, tier),
});

const billed = (seconds: number, tier: BilledTalkTime['tier'] = 'starter'): BilledTalkTime => ({
  seconds,
  tier,
  chargeMillicents: talkTimeCharge(seconds, tier),
});

describe('billedTalkTime', () => {
  it.each(TIERS)('reads back the seconds and the tier a %s row billed, whatever the tier is now', (tier) => {
    expect(billedTalkTime(row(167, tier))).toEqual({ seconds: 167, tier, chargeMillicents: talkTimeCharge(167, tier) });
  });

  it('reads the description as bill writes it', () => {
    expect(talkTimeDescription(SID, 'num_3', 167, 'starter')).toBe(`Call ${SID} on num_3: 167 s at 49¢/min (starter)`);
  });

  it('refuses a row whose amount is not what its description says was billed, or that does not say it', () => {
    expect(billedTalkTime({ ...row(167, 'starter'), amount_millicents: -1n })).toBeNull();
    expect(billedTalkTime({ ...row(167, 'starter'), description: 'Call CA1 on num_3' })).toBeNull();
    // The growth rate's amount under a starter description: the tier is not the one it was priced at.
    expect(billedTalkTime({ ...row(167, 'starter'), amount_millicents: -talkTimeCharge(167, 'growth') })).toBeNull();
  });
});

describe('talkTimeAdjustment', () => {
  /** What the call has cost once the adjustment is posted: the charge and the adjustment, as the ledger sums them. */
  const costAfter = (from: BilledTalkTime, corrected: number) =>
    from.chargeMillicents - talkTimeAdjustment(from, corrected).amountMillicents;

  it('charges the difference when the call was longer: 300 s billed, 420 s taken', () => {
    // 420 s at 49¢/min = 343 000 millicents; 300 s = 245 000.
    expect(talkTimeAdjustment(billed(300), 420)).toEqual({
      amountMillicents: -98_000n,
      seconds: 120,
      correctedChargeMillicents: 343_000n,
    });
  });

  it('credits the difference when the call was shorter', () => {
    expect(talkTimeAdjustment(billed(600, 'growth'), 240)).toEqual({
      amountMillicents: 234_000n,
      seconds: -360,
      correctedChargeMillicents: 156_000n,
    });
  });

  it('has nothing to post when the duration is unchanged', () => {
    expect(talkTimeAdjustment(billed(3600, 'scale'), 3600)).toEqual({
      amountMillicents: 0n,
      seconds: 0,
      correctedChargeMillicents: talkTimeCharge(3600, 'scale'),
    });
  });

  it('credits the whole charge when the call turns out to have taken no time', () => {
    expect(talkTimeAdjustment(billed(61), 0)).toMatchObject({ amountMillicents: 49_817n, seconds: -61 });
  });

  it('leaves the call costing exactly its corrected charge, rounded once as a call is, at every tier', () => {
    // Rounded per call, not per difference: 1 s more at 49¢/min is 816 or 817 millicents depending on the call.
    for (const tier of TIERS)
      for (const [from, to] of [
        [1, 2],
        [5, 4],
        [61, 3601],
        [3601, 61],
        [86_399, 86_400],
        [0, 7],
      ])
        expect(costAfter(billed(from, tier), to)).toBe(talkTimeCharge(to, tier));
  });

  it('prices the difference at the tier the call was billed at, not the account’s tier now', () => {
    expect(talkTimeAdjustment(billed(60, 'starter'), 120).amountMillicents).toBe(-49_000n);
    expect(talkTimeAdjustment(billed(60, 'scale'), 120).amountMillicents).toBe(-29_000n);
  });

  it('is the same within the allowance and across its edge: the minutes are a cap, not free (ADR 0013)', () => {
    // Starter's 200 minutes are 12 000 s. The same 120 s more cost the same before the edge, across it and after.
    const within = talkTimeAdjustment(billed(6_000), 6_120);
    const across = talkTimeAdjustment(billed(11_940), 12_060);
    const beyond = talkTimeAdjustment(billed(13_000), 13_120);
    expect(within).toMatchObject({ amountMillicents: -98_000n, seconds: 120 });
    expect(across).toMatchObject({ amountMillicents: -98_000n, seconds: 120 });
    expect(beyond).toMatchObject({ amountMillicents: -98_000n, seconds: 120 });
  });
});

describe('talkTimeAdjustmentDescription', () => {
  it('names the call, both durations and the rate of the difference', () => {
    expect(talkTimeAdjustmentDescription(SID, 'num_3', billed(300), 420)).toBe(
      `Call ${SID} on num_3 corrected: 420 s, not the 300 s billed (+120 s at 49¢/min, starter)`,
    );
    expect(talkTimeAdjustmentDescription(SID, 'num_3', billed(600, 'growth'), 240)).toBe(
      `Call ${SID} on num_3 corrected: 240 s, not the 600 s billed (-360 s at 39¢/min, growth)`,
    );
  });
});
