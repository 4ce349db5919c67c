import {
  accountId,
  accountOfNumber,
  bytesText,
  conversationOf,
  GIB,
  layout,
  numberId,
  numberOfCall,
  perMillion,
  phoneNumber,
  projectBytes,
  recordingBytes,
  retentionDaysExpiring,
  spanDays,
  streamHolds,
} from './capacity-plan.mjs';

const deployment = layout({ numbers: 100_000, accounts: 10_000, largeNumbers: 1000, largeShare: 0.1 });

describe("the capacity seed's layout", () => {
  it('gives the large account the first numbers and every other account about numbers/accounts', () => {
    expect(accountOfNumber(deployment, 0)).toBe(0);
    expect(accountOfNumber(deployment, 999)).toBe(0);
    expect(accountOfNumber(deployment, 1000)).toBe(1);
    expect(accountOfNumber(deployment, 99_999)).toBe(9999);
    const perAccount = new Map<number, number>();
    for (let n = 1000; n < 100_000; n += 1) {
      const a = accountOfNumber(deployment, n);
      perAccount.set(a, (perAccount.get(a) ?? 0) + 1);
    }
    expect(perAccount.size).toBe(9999);
    expect(Math.min(...perAccount.values())).toBeGreaterThanOrEqual(9);
    expect(Math.max(...perAccount.values())).toBeLessThanOrEqual(10);
  });

  it("sends the large account's share of calls to its numbers, the rest skewed towards the first numbers", () => {
    expect(numberOfCall(deployment, 0.05, 0.5)).toBe(500);
    expect(numberOfCall(deployment, 0.05, 0.999_999)).toBe(999);
    expect(numberOfCall(deployment, 0.5, 0)).toBe(1000);
    expect(numberOfCall(deployment, 0.5, 0.999_999)).toBe(99_999);
    // u^2: half the draws land on the first quarter of the other numbers.
    expect(numberOfCall(deployment, 0.5, 0.5)).toBe(1000 + Math.floor(99_000 * 0.25));
  });

  it('refuses layouts that leave an account without a number', () => {
    expect(() => layout({ numbers: 100, accounts: 200, largeNumbers: 10, largeShare: 0.1 })).toThrow(RangeError);
    expect(() => layout({ numbers: 100, accounts: 10, largeNumbers: 100, largeShare: 0.1 })).toThrow(RangeError);
    expect(() => layout({ numbers: 100, accounts: 10, largeNumbers: 10, largeShare: 1 })).toThrow(RangeError);
  });

  it('writes ids in the forms the contracts accept', () => {
    expect(accountId(0)).toMatch(/^acct_(?:test_)?[0-9a-z]{20}$/);
    expect(accountId(9999)).toBe('acct_00000000000000009999');
    expect(numberId(0)).toBe('num_1');
    expect(phoneNumber(99_999)).toBe('+12025649999');
  });

  it("spreads calls over the pool's conversations", () => {
    const seen = new Set<number>();
    for (let k = 0; k < 10_000; k += 1) {
      const conv = conversationOf(k, 1000);
      expect(conv).toBeGreaterThanOrEqual(0);
      expect(conv).toBeLessThan(1000);
      seen.add(conv);
    }
    expect(seen.size).toBeGreaterThan(990);
    // Past 2^53 / 2654435761 a Number product would lose digits; BigInt keeps them.
    expect(conversationOf(10_000_000, 200_000)).toBe(Number((10_000_000n * 2_654_435_761n) % 4_294_967_296n) % 200_000);
  });
});

describe('retention that lets one month expire', () => {
  it('keeps all but the oldest days of the span', () => {
    expect(spanDays(12)).toBe(365);
    expect(retentionDaysExpiring(365, 30)).toBe(335);
    expect(retentionDaysExpiring(365, 60)).toBe(305);
    expect(() => retentionDaysExpiring(365, 365)).toThrow(RangeError);
  });
});

describe('projections', () => {
  it('scales sizes linearly per million calls', () => {
    expect(perMillion(2 * GIB, 200_000)).toBe(10 * GIB);
    expect(perMillion(1, 0)).toBeNaN();
    expect(projectBytes(2 * GIB, 10_000_000, 12)).toBe(240 * GIB);
  });

  it('sizes recordings from the recorded share, the mean duration and the bit rate', () => {
    // 10 million calls, 70% recorded, 2 minutes on average, 1 MB a minute: 14 TB.
    expect(recordingBytes({ calls: 10_000_000, recordedShare: 0.7, meanDurationSec: 120, mbPerMinute: 1 })).toBe(14e12);
  });

  it("holds a stream's messages of its age limit, on every replica", () => {
    const month = streamHolds({ messagesPerMonth: 10_000_000, bytesPerMessage: 1000, maxAgeDays: 365 / 12 });
    expect(month.messages).toBeCloseTo(10_000_000);
    expect(month.bytes).toBeCloseTo(1e10);
    const thirty = streamHolds({ messagesPerMonth: 10_000_000, bytesPerMessage: 1000, maxAgeDays: 30, replicas: 3 });
    expect(thirty.messages).toBeCloseTo((10_000_000 * 30) / (365 / 12));
    expect(thirty.bytes).toBeCloseTo(thirty.messages * 3000);
  });

  it('prints bytes in MiB, GiB or TiB', () => {
    expect(bytesText(512 * 2 ** 20)).toBe('512 MiB');
    expect(bytesText(1.5 * GIB)).toBe('1.5 GiB');
    expect(bytesText(2048 * GIB)).toBe('2.00 TiB');
    expect(bytesText(NaN)).toBe('-');
  });
});
