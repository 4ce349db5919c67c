import { areaCodeOf, isUsE164 } from '@switchboard/contracts';
import { candidateNumbers, firstFreeNumber, isLocalUsNumber } from './phone-pool';

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

  it('continues past the fictional range when it is sold out', () => {
    const taken = new Set(take(candidateNumbers('212'), 100));
    const next = firstFreeNumber('212', taken);
    expect(next).toBe('+12125550200');
    expect(isUsE164(next)).toBe(true);
  });

  it('reuses a number once it is free again', () => {
    const taken = new Set(['+13105550100', '+13105550102']);
    expect(firstFreeNumber('313', new Set())).toBe('+13135550100');
    expect(firstFreeNumber('310', taken)).toBe('+13105550101');
  });

  it('sells nothing in an area code that has no local numbers', () => {
    expect(firstFreeNumber('999', new Set())).toBeUndefined();
    expect(firstFreeNumber('800', new Set())).toBeUndefined(); // toll-free, not local
  });

  it('tells local numbers from toll-free ones', () => {
    expect(isLocalUsNumber('+14155550100')).toBe(true);
    expect(isLocalUsNumber('+18005550100')).toBe(false);
  });
});

function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  let n = 0;
  for (const item of items) {
    if (n++ >= count) return;
    yield item;
  }
}
