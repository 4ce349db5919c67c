import { countBy, median, medianBy, pairedVerdict, percentile, round, summarize } from './stats.mjs';

describe('percentiles by the nearest rank', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('gives the smallest value with p% of the list at or under it', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([10, 20, 30], 50)).toBe(20);
    expect(percentile([10, 20, 30], 99)).toBe(30);
  });

  it('gives the first value for p 0 and NaN for an empty list', () => {
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('a summary of latency samples', () => {
  it('sorts the samples itself and rounds to 0.01 ms', () => {
    const samples = [5, 1, 4, 2, 3, 100, 6, 7, 8, 9].map((ms) => ms + 0.004);
    expect(summarize(samples)).toEqual({
      count: 10,
      p50_ms: 5,
      p90_ms: 9,
      p95_ms: 100,
      p99_ms: 100,
      max_ms: 100,
      mean_ms: 14.5,
    });
  });

  it('has NaN figures and a count of 0 for no samples', () => {
    expect(summarize([])).toMatchObject({ count: 0, p50_ms: NaN, mean_ms: NaN });
  });
});

describe('medians', () => {
  it('takes the middle value, the upper one of an even count, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeNaN();
  });

  it('finds the item whose value is the median', () => {
    const pairs = [{ ratio: 0.9 }, { ratio: 0.6 }, { ratio: 0.7 }];
    expect(medianBy(pairs, (pair: { ratio: number }) => pair.ratio)).toBe(pairs[2]);
    expect(medianBy([], () => 0)).toBeUndefined();
  });

  it('counts items by a key', () => {
    expect(countBy([{ s: 503 }, { s: 429 }, { s: 503 }], (r: { s: number }) => `${r.s}`)).toEqual({ 503: 2, 429: 1 });
    expect(countBy([], String)).toEqual({});
  });

  it('rounds to the digits asked and leaves what is not a number alone', () => {
    expect(round(1.23456)).toBe(1.23);
    expect(round(1.23456, 3)).toBe(1.235);
    expect(round(NaN)).toBeNaN();
    expect(round(undefined)).toBeUndefined();
  });
});

describe('the verdict of floor-then-system pairs', () => {
  const maxPairs = [
    { floor_rps: 1000, system_rps: 800 },
    { floor_rps: 1200, system_rps: 600 },
    { floor_rps: 900, system_rps: 630 },
  ];
  const halfPairs = [
    { floor_p99_ms: 10, system_p99_ms: 20 },
    { floor_p99_ms: 5, system_p99_ms: 25 },
    { floor_p99_ms: 20, system_p99_ms: 30 },
  ];

  it("reports the median pair's ratio with that pair's rates, not a ratio of medians", () => {
    const verdict = pairedVerdict(maxPairs, halfPairs);
    expect(verdict.pair_ratios).toEqual([0.8, 0.5, 0.7]);
    expect(verdict).toMatchObject({ ratio: 0.7, system_rps: 630, floor_rps: 900 });
  });

  it("reports the median pair's p99 factor with that pair's p99s", () => {
    const verdict = pairedVerdict(maxPairs, halfPairs);
    expect(verdict.pair_p99_factors).toEqual([2, 5, 1.5]);
    expect(verdict).toMatchObject({ p99_factor_at_half_rate: 2, system_p99_ms: 20, floor_p99_ms: 10 });
  });

  it('has NaN figures for what was not measured', () => {
    expect(pairedVerdict(maxPairs, [])).toMatchObject({ ratio: 0.7, p99_factor_at_half_rate: NaN });
  });
});
