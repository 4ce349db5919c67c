import { areaCodeOf, isUsE164 } from '@switchboard/contracts';
import { CANDIDATE_CHUNK, candidateNumbers, candidatesOf, firstFreeNumber, isLocalUsNumber } from './phone-pool';

describe('the simulated provider number pool', () => {
  it('sells the fictional 555-01XX range first, as valid US numbers of the area code', () => {
    const first = [...take(candidateNumbers('415'), 100)];
    expect(first[0]).toBe('+14155550100');
    expect(first[99]).toBe('+14155550199');
    for (const e164 of first) {
      expect(isUsE164(e164)).toBe(true);
      expect(areaCodeOf(e164)).toBe('415');
    }
  });

  it('continues past the fictional range when it is sold out', async () => {
    const taken = new Set(take(candidateNumbers('212'), 100));
    const next = await firstFreeNumber('212', unsoldOf(taken));
    expect(next).toBe('+12125550200');
    expect(isUsE164(next)).toBe(true);
  });

  it('reuses a number once it is free again', async () => {
    const taken = new Set(['+13105550100', '+13105550102']);
    expect(await firstFreeNumber('313', unsoldOf(new Set()))).toBe('+13135550100');
    expect(await firstFreeNumber('310', unsoldOf(taken))).toBe('+13105550101');
  });

  it('asks about one chunk of candidates at a time, in the selling order', async () => {
    const all = [...candidateNumbers('646')];
    const taken = new Set(all.slice(0, CANDIDATE_CHUNK + 5));
    const asked: string[][] = [];
    const next = await firstFreeNumber('646', (candidates) => {
      asked.push([...candidates]);
      return unsoldOf(taken)(candidates);
    });
    expect(next).toBe(all[CANDIDATE_CHUNK + 5]);
    expect(asked).toEqual([all.slice(0, CANDIDATE_CHUNK), all.slice(CANDIDATE_CHUNK, 2 * CANDIDATE_CHUNK)]);
    // The kept walk answers the same as a fresh one, from any position.
    expect(candidatesOf('646', 3, 2)).toEqual(all.slice(3, 5));
    expect(candidatesOf('646', all.length - 1, 5)).toEqual(all.slice(-1));
  });

  it('sells nothing once every candidate is sold', async () => {
    const all = new Set(candidateNumbers('917'));
    expect(all.size).toBeGreaterThan(9_000);
    expect(await firstFreeNumber('917', unsoldOf(all))).toBeUndefined();
  });

  it('sells nothing in an area code that has no local numbers', async () => {
    expect(await firstFreeNumber('999', unsoldOf(new Set()))).toBeUndefined();
    expect(await firstFreeNumber('800', unsoldOf(new Set()))).toBeUndefined(); // toll-free, not local
  });

  it('tells local numbers from toll-free ones', () => {
    expect(isLocalUsNumber('+14155550100')).toBe(true);
    expect(isLocalUsNumber('+18005550100')).toBe(false);
  });
});

/** What the seller's statement answers, over a set of sold numbers. */
function unsoldOf(sold: ReadonlySet<string>) {
  return (candidates: readonly string[]) => Promise.resolve(candidates.find((n) => !sold.has(n)));
}

function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  let n = 0;
  for (const item of items) {
    if (n++ >= count) return;
    yield item;
  }
}
