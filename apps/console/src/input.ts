// What people type, read the way the API wants it. Pure functions, unit-tested (input.spec.ts).

/** `"203.0.113.7, 198.51.100.0/24"` (commas, spaces or lines) as a list; empty means every address. */
export function parseAllowlist(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Photo URLs typed one per line (or separated by spaces): the first is the item's main photo. */
export function parsePhotoUrls(text: string): string[] {
  return text
    .split(/\s+/)
    .map((url) => url.trim())
    .filter(Boolean);
}

/**
 * Whether a stored photo URL may be a link: an absolute `https:` or `http:` URL. The API refuses any other scheme
 * (issue 47), but items logged before that may hold a `javascript:` or `data:` one: the desk shows those as text.
 */
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** `"12.50"` or `"$12"` as cents (1250, 1200); undefined when it is not an amount of dollars and cents. */
export function toCents(text: string): number | undefined {
  const trimmed = text.trim().replace(/^\$/, '');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(trimmed)) return undefined;
  const [dollars, cents = ''] = trimmed.split('.');
  return Number(dollars) * 100 + Number(cents.padEnd(2, '0'));
}

/** 1250 cents as `"12.50"`, for a form's field. */
export function centsText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A `YYYY-MM-DD` from a date input as the instant its day starts here (`end`: the next day's start). */
export function dayStart(day: string, end = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (end) date.setDate(date.getDate() + 1);
  return date.toISOString();
}

/** Where to go after signing in: only a path inside the console, never another site (`?next=//evil.example`). */
export function safeNext(next: string | null): string {
  return next && /^\/(?!\/)[^\\]*$/.test(next) && !next.startsWith('/sign-in') ? next : '/calls';
}

/**
 * A call length typed in minutes (`2`, `1.5`, `0.25`) as whole seconds, the API's `min_duration` and
 * `max_duration`; '' when empty, undefined when it is not a number of minutes (negative, words, seven digits).
 */
export function minutesToSeconds(text: string): number | '' | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (!trimmed) return '';
  if (!/^\d{1,6}(\.\d{1,2})?$|^\.\d{1,2}$/.test(trimmed)) return undefined;
  return Math.round(Number(trimmed) * 60);
}

/** Seconds from the address back in the minutes field: `90` as `1.5`, `20` as `0.33` (and read back as 20). */
export function secondsToMinutes(seconds: string): string {
  if (!/^\d{1,9}$/.test(seconds)) return '';
  return String(Math.round((Number(seconds) / 60) * 100) / 100);
}

/**
 * A caller's number as people paste it (`+1 (415) 555-0199`) in the E.164 form the API filters by
 * (`+14155550199`), and `anonymous` in any case. Anything else is left for the API to refuse, in its own words.
 */
export function normalizeCaller(text: string): string {
  const trimmed = text.trim();
  if (/^anonymous$/i.test(trimmed)) return 'anonymous';
  return /^\+?[\d\s().-]+$/.test(trimmed) ? trimmed.replace(/[\s().-]/g, '') : trimmed;
}
