// The perf kit's statistics: percentiles by the nearest-rank method, summaries of latency samples, medians, and the
// median pair of paired measurements (a floor's and the system's, back to back: docs/performance.md, "Method").

/** The nearest-rank percentile of an ascending list: the smallest value with at least p% of the list at or under it. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** count, p50/p90/p95/p99, max and mean of a list of milliseconds (in any order), rounded to 0.01 ms. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1);
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p90_ms: round(percentile(sorted, 90)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted.at(-1) ?? NaN),
    mean_ms: round(sorted.length ? mean : NaN),
  };
}

/** The median of a list of numbers; of an even count, the upper of the two middle values (a value that was measured). */
export function median(values) {
  if (values.length === 0) return NaN;
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The item whose `value(item)` is the median (the upper one of an even count): the median pair of paired runs. */
export function medianBy(items, value) {
  if (items.length === 0) return undefined;
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)];
}

/** How many items of `list` have each `key(item)`: { key: count }. */
export function countBy(list, key) {
  const counts = {};
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** `value` rounded to `digits` decimals; what is not a finite number is returned as it is. */
export const round = (value, digits = 2) =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value;

/**
 * The verdict of paired measurements against a floor: `maxPairs` [{ floor_rps, system_rps }] measured back to back,
 * and `halfPairs` [{ floor_p99_ms, system_p99_ms }] at half the floor's maximum rate. Each pair gives a ratio
 * (system / floor), and the median pair's is the one reported: this machine's speed drifts within minutes, so a
 * ratio is only taken from two measurements seconds apart (docs/performance.md, "Method").
 */
export function pairedVerdict(maxPairs, halfPairs) {
  const withRatio = maxPairs.map((pair) => ({ ...pair, ratio: round(pair.system_rps / pair.floor_rps, 3) }));
  const withFactor = halfPairs.map((pair) => ({ ...pair, factor: round(pair.system_p99_ms / pair.floor_p99_ms, 2) }));
  const max = medianBy(withRatio, (pair) => pair.ratio);
  const half = medianBy(withFactor, (pair) => pair.factor);
  return {
    ratio: max?.ratio ?? NaN,
    pair_ratios: withRatio.map((pair) => pair.ratio),
    system_rps: max?.system_rps ?? NaN,
    floor_rps: max?.floor_rps ?? NaN,
    p99_factor_at_half_rate: half?.factor ?? NaN,
    pair_p99_factors: withFactor.map((pair) => pair.factor),
    system_p99_ms: half?.system_p99_ms ?? NaN,
    floor_p99_ms: half?.floor_p99_ms ?? NaN,
  };
}
