import { types } from 'pg';

export const TIMESTAMPTZ_OID = 1184;
/** `pg`'s own parser of a timestamptz (postgres-date), for every text this one does not read itself. */
const parseAnyTimestamptz = types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date | number | null;

const ZERO = 48;
const SHAPE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?[+-]\d\d$/;

/**
 * A timestamptz as `pg` parses it (postgres-date: the same `Date`), read directly when it has the shape PostgreSQL
 * writes in a session whose time zone is a whole number of hours from UTC: `2026-11-27 09:02:34.213262+00`. Every
 * row of the calls list, the numbers list and the gateway's key look-up has one or two: postgres-date's three regular
 * expressions and parses were 3.7% of calls-media's sampled CPU on `GET /v1/calls` (docs/performance.md, seventeenth
 * pass). Anything else (another offset, a year before 1000, `infinity`, BC) goes to postgres-date.
 */
export function parseTimestamptz(text: string): Date | number | null {
  if (!SHAPE.test(text)) return parseAnyTimestamptz(text);
  const digits = (from: number, to: number) => {
    let value = 0;
    for (let i = from; i < to; i += 1) value = value * 10 + text.charCodeAt(i) - ZERO;
    return value;
  };
  const year = digits(0, 4);
  if (year < 1000) return parseAnyTimestamptz(text);
  const zone = text.length - 3;
  // The first three digits of the fraction: postgres-date's `1000 * parseFloat(fraction)`, which Date.UTC truncates,
  // gives the same milliseconds for every fraction of up to six digits (checked for all of them in the spec).
  const fraction = zone > 19 ? digits(20, 20 + Math.min(3, zone - 20)) * 10 ** (3 - Math.min(3, zone - 20)) : 0;
  const offsetHours = digits(zone + 1, zone + 3) * (text.charCodeAt(zone) === 45 /* - */ ? -1 : 1);
  const utc = Date.UTC(year, digits(5, 7) - 1, digits(8, 10), digits(11, 13), digits(14, 16), digits(17, 19), fraction);
  return new Date(utc - offsetHours * 3_600_000);
}
