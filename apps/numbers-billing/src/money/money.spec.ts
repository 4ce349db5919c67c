import { millicentsToCents, talkTimeCharge, TIER_TERMS } from './money';

describe('talkTimeCharge', () => {
  it('bills a whole minute at exactly the tier rate', () => {
    expect(talkTimeCharge(60, 'starter')).toBe(49_000n);
    expect(talkTimeCharge(60, 'growth')).toBe(39_000n);
    expect(talkTimeCharge(60, 'scale')).toBe(29_000n);
  });

  it('bills by the second, rounding the exact price to the nearest millicent', () => {
    // 61 s at 49¢/min = 49.81666…¢ = 49 816.67 millicents
    expect(talkTimeCharge(61, 'starter')).toBe(49_817n);
    // 1 s at 39¢/min = 650 millicents exactly
    expect(talkTimeCharge(1, 'growth')).toBe(650n);
    // 1 s at 29¢/min = 483.33 millicents
    expect(talkTimeCharge(1, 'scale')).toBe(483n);
  });

  it('rounds a fraction of a millicent to the nearest one', () => {
    // 1 s at 49¢/min = 816.666… millicents -> 817; 5 s = 4083.33… -> 4083
    expect(talkTimeCharge(1, 'starter')).toBe(817n);
    expect(talkTimeCharge(5, 'starter')).toBe(4083n);
    expect(talkTimeCharge(0, 'starter')).toBe(0n);
  });

  it('never drifts more than half a millicent from the exact price, however long the call', () => {
    for (const tier of Object.keys(TIER_TERMS) as (keyof typeof TIER_TERMS)[]) {
      for (const seconds of [0, 1, 59, 61, 119, 3599, 3601, 86_399]) {
        const exact = (seconds * Number(TIER_TERMS[tier].ratePerMinuteMillicents)) / 60;
        expect(Math.abs(Number(talkTimeCharge(seconds, tier)) - exact)).toBeLessThanOrEqual(0.5);
      }
    }
  });

  it('refuses a negative or fractional duration', () => {
    expect(() => talkTimeCharge(-1, 'starter')).toThrow(RangeError);
    expect(() => talkTimeCharge(1.5, 'starter')).toThrow(RangeError);
  });
});

describe('millicentsToCents', () => {
  it('rounds down to whole cents, also below zero', () => {
    expect(millicentsToCents(500_999n)).toBe(500n);
    expect(millicentsToCents(0n)).toBe(0n);
    expect(millicentsToCents(-1n)).toBe(-1n);
    expect(millicentsToCents(-1000n)).toBe(-1n);
    expect(millicentsToCents(-1001n)).toBe(-2n);
  });
});
