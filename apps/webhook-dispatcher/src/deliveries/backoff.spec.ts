import { backoffDelayMs } from './backoff';

const policy = { baseMs: 1000, maxMs: 60_000 };
const noJitter = () => 0;
const fullJitter = () => 0.999999;

describe('backoffDelayMs', () => {
  it('waits the base before the second attempt and doubles after each later failure', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, policy, noJitter))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('adds at most a quarter of the delay as jitter, never less than the delay itself', () => {
    expect(backoffDelayMs(1, policy, fullJitter)).toBe(1250);
    expect(backoffDelayMs(3, policy, fullJitter)).toBe(5000);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(4500);
  });

  it('caps the exponential part at the maximum', () => {
    expect(backoffDelayMs(10, policy, noJitter)).toBe(60_000);
    expect(backoffDelayMs(1000, policy, noJitter)).toBe(60_000);
  });

  it('refuses an attempt number below 1', () => {
    expect(() => backoffDelayMs(0, policy)).toThrow(RangeError);
  });
});
