// How the console writes times, money and durations: one place, the same everywhere.

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** `2026-11-20` as `Nov 20` (the day as the server counted it, UTC). */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dateOnly.format(date);
}

/**
 * Money as people read it (docs/money-and-minutes.md): whole cents, rounded down (toward minus infinity), the rule of
 * the server's `formatMillicentsAsDollars` (libs/contracts): a balance is never shown as more than it holds.
 */
export function formatCents(cents: number): string {
  return dollars.format(Math.floor(cents) / 100);
}

/** The ledger's exact millicents (6373617 is 6373.617 cents) as `$63.73`, the same text as the balance's cents. */
export function formatMillicents(millicents: number): string {
  return formatCents(Math.floor(millicents / 1000));
}

/**
 * Talk time in whole minutes, rounded down (167 s is 2): the API's `minutes_used`, and the server's `talkMinutes`.
 * Talk time is billed by the second; the minutes count toward the tier's monthly cap.
 */
export function talkMinutes(seconds: number): number {
  return seconds > 0 ? Math.floor(seconds / 60) : 0;
}

/** `2 min`, `1 min`, `0 min`: a count of talk time as the summary and the chart both write it. */
export function formatMinutes(seconds: number): string {
  return `${talkMinutes(seconds)} min`;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(s / 60);
  const rest = s % 60;
  return minutes > 0 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${rest} s`;
}

/** `order_placed` as `Order placed`. */
export function humanize(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Who spoke in a transcript, as people say it: the call page's and the live view's. */
export function speaker(role: string): string {
  return role === 'agent' ? 'AI agent' : role === 'caller' ? 'Caller' : humanize(role);
}
