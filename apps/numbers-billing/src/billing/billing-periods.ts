/**
 * A number is charged per month from its provisioning date (spec part 8). Period `k` starts `k` calendar months
 * after provisioning, in UTC, at the same time of day; a day the month lacks becomes its last day (provisioned
 * on 31 January: periods start 28/29 February, 31 March, 30 April…). Always counted from the provisioning date,
 * so short months never shift later periods.
 */
export function periodStart(provisionedAt: Date, period: number): Date {
  if (!Number.isInteger(period) || period < 0) throw new RangeError('period must be a non-negative integer');
  const year = provisionedAt.getUTCFullYear();
  const month = provisionedAt.getUTCMonth() + period;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(provisionedAt.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      provisionedAt.getUTCHours(),
      provisionedAt.getUTCMinutes(),
      provisionedAt.getUTCSeconds(),
      provisionedAt.getUTCMilliseconds(),
    ),
  );
}

/** The grace a past_due number gets before it is released (spec part 3). */
export const GRACE_PERIOD_MS = 7 * 24 * 3600 * 1000;

/** The calendar month (UTC) a moment falls in, as `YYYY-MM`: the talk-time allowance period. */
export function allowancePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}
