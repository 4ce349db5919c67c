/**
 * How the services write money, talk time and times for people (ledger lines, e-mails, error messages): the rules of
 * docs/money-and-minutes.md. The console writes them with the same rules in apps/console/src/format.ts; a unit test
 * holds the two to the same text.
 */

const MILLICENTS_PER_CENT = 1000n;

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const utcTime = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * Whole cents from millicents, rounded down (toward minus infinity): a balance is never shown as more than it holds,
 * and a charge never as less than it costs. `balance_cents` is this of the ledger's balance.
 */
export function wholeCents(millicents: bigint | number): bigint {
  const exact = BigInt(millicents);
  const quotient = exact / MILLICENTS_PER_CENT;
  return exact % MILLICENTS_PER_CENT < 0n ? quotient - 1n : quotient;
}

/** Whole cents as dollars: `6373` as `$63.73`, `-82` as `-$0.82`. */
export function formatCentsAsDollars(cents: bigint | number): string {
  // A whole number of cents over 100 is the double nearest to its two-decimal value; the format's two decimals
  // give that value back exactly (for any balance below $90 trillion).
  return dollars.format(Number(cents) / 100);
}

/** Millicents as dollars, rounded down to the cent: `6373617` (6373.617 cents) as `$63.73`. */
export function formatMillicentsAsDollars(millicents: bigint | number): string {
  return formatCentsAsDollars(wholeCents(millicents));
}

/**
 * Talk time in whole minutes, rounded down: 167 s is 2 minutes. Talk time is billed by the second (spec part 8), so
 * this is a count, not what was charged; it reaches a tier's monthly minutes exactly when the allowance is used up.
 */
export function talkMinutes(seconds: number | bigint): number {
  const whole = Number(seconds);
  return whole > 0 ? Math.floor(whole / 60) : 0;
}

/** `Dec 2, 2026, 14:05 UTC`: a time in a message to a person, in UTC, saying so. */
export function formatUtcTime(at: Date | string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return String(at);
  return `${utcTime.format(date)} UTC`;
}
