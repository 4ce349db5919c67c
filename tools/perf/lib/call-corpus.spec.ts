import {
  callBatch,
  callerOf,
  copyLine,
  copyValue,
  MAX_DURATION_SEC,
  mixSeed,
  SURNAMES,
  timeOfDay,
  weighted,
  zipf,
} from './call-corpus.mjs';
import { mulberry32, shuffle } from './random.mjs';

type Call = ReturnType<ReturnType<typeof callBatch>['call']>;

/** The share of `calls` whose summary or transcript holds `word` (case-insensitive, whole word). */
function documentShare(calls: Call[], word: string): number {
  const pattern = new RegExp(`\\b${word}\\b`, 'i');
  return (
    calls.filter((c) => pattern.test(c.summary ?? '') || c.turns.some((t) => pattern.test(t.text))).length /
    calls.length
  );
}

const DAY_MS = 86_400_000;
const anchor = Date.UTC(2026, 11, 2, 8);
const numbers = [
  { id: 'num_1', phone_number: '+14155550100' },
  { id: 'num_2', phone_number: '+14155550101' },
  { id: 'num_3', phone_number: '+14155550102' },
];
const batch = (seed: number, count: number) => callBatch({ seed, count, accountId: 'acct_a', numbers, anchor });
const share = (calls: Call[], test: (call: Call) => boolean) => calls.filter(test).length / calls.length;

// One sample for the distribution checks: 4,000 calls (about 40 ms).
const sample = (() => {
  const b = batch(7, 4000);
  return Array.from({ length: b.count }, (_, k) => b.call(k));
})();

describe('the calls corpus: determinism', () => {
  it('gives the same call for the same seed and index, whatever was generated before', () => {
    const first = batch(1, 1000);
    const again = batch(1, 1000);
    const late = first.call(999);
    expect(again.call(999)).toEqual(late);
    expect(first.call(0)).toEqual(again.call(0));
    expect(first.call(999)).toEqual(late);
  });

  it('gives other calls for another seed, and ids unique in a batch and between seeds', () => {
    expect(batch(2, 1000).call(5)).not.toEqual(batch(1, 1000).call(5));
    const ids = new Set([
      ...sample.map((call) => call.id),
      ...Array.from({ length: 100 }, (_, k) => batch(8, 100).call(k).id),
    ]);
    expect(ids.size).toBe(sample.length + 100);
    expect(sample[0].id).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it('refuses an index outside the batch', () => {
    expect(() => batch(1, 10).call(10)).toThrow(RangeError);
    expect(() => batch(1, 10).call(-1)).toThrow(RangeError);
  });

  it('has fixed vocabularies and random streams', () => {
    expect(SURNAMES).toHaveLength(20_000);
    expect(new Set(SURNAMES).size).toBe(20_000);
    expect(SURNAMES.slice(0, 3)).toEqual(SURNAMES.slice(0, 3)); // built once, at load
    const a = mulberry32(42);
    const b = mulberry32(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(mixSeed(1, 0)).not.toBe(mixSeed(1, 1));
    expect(mixSeed(1, 0)).not.toBe(mixSeed(2, 0));
    expect(mulberry32(1)()).toBe(0.6270739405881613); // the published mulberry32: a run seeds what the last one did
    expect(shuffle([1, 2, 3, 4, 5, 6], 7)).toEqual(shuffle([1, 2, 3, 4, 5, 6], 7));
    expect(shuffle([1, 2, 3, 4, 5, 6], 7).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(shuffle([1, 2, 3, 4, 5, 6], 7)).not.toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('the calls corpus: distributions', () => {
  it('draws by a Zipf-like law: weight 1/rank^s', () => {
    const pick = zipf(['a', 'b', 'c', 'd'], 1);
    expect(pick.share(1)).toBeCloseTo(1 / (1 + 1 / 2 + 1 / 3 + 1 / 4), 10);
    expect(pick.share(1) / pick.share(4)).toBeCloseTo(4, 10);
    const rand = mulberry32(3);
    const counts: Record<string, number> = { a: 0, b: 0, c: 0, d: 0 };
    for (let i = 0; i < 20_000; i += 1) counts[pick(rand)] += 1;
    expect(counts.a / 20_000).toBeCloseTo(pick.share(1), 1);
    expect(counts.a).toBeGreaterThan(3 * counts.d);
    expect(() => zipf([], 1)).toThrow('zipf over no items');
  });

  it('draws by explicit weights', () => {
    const pick = weighted([
      ['x', 3],
      ['y', 1],
    ]);
    const rand = mulberry32(4);
    let x = 0;
    for (let i = 0; i < 10_000; i += 1) if (pick(rand) === 'x') x += 1;
    expect(x / 10_000).toBeCloseTo(0.75, 1);
  });

  it('has common words in many calls and rare ones in very few', () => {
    expect(documentShare(sample, 'pizza')).toBeGreaterThan(0.2);
    expect(documentShare(sample, 'order')).toBeGreaterThan(0.4);
    expect(documentShare(sample, 'extra cheese')).toBeGreaterThan(0.05);
    expect(documentShare(sample, SURNAMES[1500])).toBeLessThan(0.002);
  });

  it('has about eight turns a call, skewed outcomes, ~10% negative sentiment, ~60% recorded', () => {
    const turns = sample.reduce((sum, call) => sum + call.turns.length, 0) / sample.length;
    expect(turns).toBeGreaterThan(7);
    expect(turns).toBeLessThan(9);
    expect(share(sample, (c) => c.outcome === 'order_placed')).toBeGreaterThan(0.33);
    expect(share(sample, (c) => c.outcome === 'complaint')).toBeLessThan(0.04);
    expect(share(sample, (c) => c.sentiment === 'negative')).toBeGreaterThan(0.07);
    expect(share(sample, (c) => c.sentiment === 'negative')).toBeLessThan(0.14);
    expect(share(sample, (c) => c.sentiment === 'neutral' || c.sentiment === 'positive')).toBeGreaterThan(0.75);
    expect(share(sample, (c) => c.recorded)).toBeCloseTo(0.6, 1);
    expect(new Set(sample.map((c) => c.successful))).toEqual(new Set([true, false, null]));
    expect(share(sample, (c) => c.direction === 'outbound')).toBeLessThan(0.08);
    expect(share(sample, (c) => c.status === 'completed')).toBeGreaterThan(0.9);
    expect(share(sample, (c) => c.number_id === 'num_1')).toBeGreaterThan(
      share(sample, (c) => c.number_id === 'num_3'),
    );
  });

  it('has durations from 0 to 1800 s skewed short, and callers from the pool, a few of them often', () => {
    const durations = sample.map((c) => c.duration_sec).sort((a, b) => a - b);
    expect(durations[0]).toBeGreaterThanOrEqual(0);
    expect(durations.at(-1)).toBeLessThanOrEqual(MAX_DURATION_SEC);
    expect(durations[Math.floor(durations.length / 2)]).toBeLessThan(150);
    expect(durations[Math.floor(durations.length * 0.99)]).toBeGreaterThan(400);
    const byCaller = new Map<string, number>();
    for (const c of sample) byCaller.set(c.caller, (byCaller.get(c.caller) ?? 0) + 1);
    expect(Math.max(...byCaller.values())).toBeGreaterThan(3);
    expect(byCaller.size).toBeGreaterThan(sample.length / 2);
    for (const caller of byCaller.keys()) expect(caller).toMatch(/^\+1\d{10}$/);
    expect(new Set(Array.from({ length: 50_000 }, (_, i) => callerOf(i))).size).toBe(50_000);
  });

  it('starts calls in arrival order over the span before the anchor, at lunch and dinner more than at night', () => {
    const starts = sample.map((c) => c.started_at);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(anchor - 731 * DAY_MS);
    expect(Math.max(...starts)).toBeLessThan(anchor);
    expect(starts.every((start, k) => k === 0 || start >= starts[k - 1] - DAY_MS)).toBe(true);
    const hour = (h: number) => share(sample, (c) => new Date(c.started_at).getUTCHours() === h);
    expect(hour(18)).toBeGreaterThan(5 * hour(3));
    expect(timeOfDay(0)).toBe(0);
    expect(timeOfDay(0.999_999_9)).toBeLessThan(DAY_MS);
  });
});

describe('COPY text', () => {
  it('writes null as \\N and escapes what the format needs', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue(undefined)).toBe('\\N');
    expect(copyValue(false)).toBe('false');
    expect(copyValue(12)).toBe('12');
    expect(copyValue('a\tb\nc\\d\re')).toBe('a\\tb\\nc\\\\d\\re');
    expect(copyLine(['x', null, 3])).toBe('x\t\\N\t3\n');
  });
});
