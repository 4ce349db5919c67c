import { formatCentsAsDollars, formatMillicentsAsDollars, formatUtcTime, talkMinutes, wholeCents } from './display';

describe('how the services write money, minutes and times for people', () => {
  it('takes whole cents rounding down, toward minus infinity', () => {
    expect(wholeCents(6_373_617n)).toBe(6_373n);
    expect(wholeCents(6_373_999)).toBe(6_373n);
    expect(wholeCents(-1n)).toBe(-1n);
    expect(wholeCents(-1_000n)).toBe(-1n);
    expect(wholeCents(-1_001n)).toBe(-2n);
  });

  it('writes dollars with two decimals and a leading minus', () => {
    expect(formatMillicentsAsDollars(6_373_617n)).toBe('$63.73');
    expect(formatCentsAsDollars(2_500)).toBe('$25.00');
    expect(formatCentsAsDollars(-82n)).toBe('-$0.82');
  });

  it('counts whole minutes of talk time, rounding down', () => {
    expect(talkMinutes(167)).toBe(2);
    expect(talkMinutes(12_000n)).toBe(200);
    expect(talkMinutes(-5)).toBe(0);
  });

  it('writes a time as a person reads it, in UTC and saying so, not as ISO 8601', () => {
    expect(formatUtcTime(new Date('2026-12-02T14:05:59.900Z'))).toBe('Dec 2, 2026, 14:05 UTC');
    expect(formatUtcTime('2026-01-09T00:00:00Z')).toBe('Jan 9, 2026, 00:00 UTC');
    expect(formatUtcTime('not a time')).toBe('not a time');
  });
});
