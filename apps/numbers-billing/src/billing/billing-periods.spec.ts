import { allowancePeriod, periodStart } from './billing-periods';

describe('periodStart', () => {
  it('starts period 0 at provisioning and each later one a calendar month on, same time of day', () => {
    const at = new Date('2026-03-15T10:20:30.456Z');
    expect(periodStart(at, 0)).toEqual(at);
    expect(periodStart(at, 1)).toEqual(new Date('2026-04-15T10:20:30.456Z'));
    expect(periodStart(at, 12)).toEqual(new Date('2027-03-15T10:20:30.456Z'));
  });

  it('moves a day the month lacks to its last day without shifting later periods', () => {
    const at = new Date('2026-01-31T08:00:00Z');
    expect(periodStart(at, 1)).toEqual(new Date('2026-02-28T08:00:00Z'));
    expect(periodStart(at, 2)).toEqual(new Date('2026-03-31T08:00:00Z'));
    expect(periodStart(at, 3)).toEqual(new Date('2026-04-30T08:00:00Z'));
    expect(periodStart(new Date('2028-01-31T08:00:00Z'), 1)).toEqual(new Date('2028-02-29T08:00:00Z'));
  });

  it('crosses year ends', () => {
    expect(periodStart(new Date('2026-12-10T00:00:00Z'), 1)).toEqual(new Date('2027-01-10T00:00:00Z'));
  });

  it('refuses a negative period', () => {
    expect(() => periodStart(new Date(), -1)).toThrow(RangeError);
  });
});

describe('allowancePeriod', () => {
  it('is the UTC calendar month', () => {
    expect(allowancePeriod(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(allowancePeriod(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });
});
