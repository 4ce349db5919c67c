import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { Transform } from 'class-transformer';
import { registerDecorator, type ValidationOptions } from 'class-validator';

/** Lost-and-found page size (spec part 8). */
export const LOSTFOUND_PAGE_SIZE = 25;
/** `returned` after a reunite; `donated` and `disposed` after the hold period (docs/adr/0079). */
export const FOUND_ITEM_STATUSES = ['stored', 'returned', 'donated', 'disposed'] as const;
export type FoundItemStatus = (typeof FOUND_ITEM_STATUSES)[number];
export const CLAIM_STATUSES = ['open', 'reunited'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
/** Where a claim came from: the API, the claimant page, or a report taken on the phone by a number's agent. */
export const CLAIM_SOURCES = ['api', 'web', 'phone'] as const;
export type ClaimSource = (typeof CLAIM_SOURCES)[number];
export const DISPOSAL_OUTCOMES = ['donated', 'disposed'] as const;
export type DisposalOutcome = (typeof DISPOSAL_OUTCOMES)[number];

export const MAX_SHORT_TEXT = 200;
export const MAX_DESCRIPTION = 2000;
export const MAX_IMAGE_URL = 2048;
export const MAX_SEARCH_TEXT = 200;

/** Ids are PostgreSQL `integer` sequences: a larger integer is well-formed but names nothing. */
export const MAX_STORED_ID = 2_147_483_647;

/** `YYYY-MM-DD` naming a real calendar day (no 2025-02-30), years 1900-2999. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2999) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a date written YYYY-MM-DD`, ...options },
      validator: { validate: isCalendarDate },
    });
}

/**
 * A claimant's phone in E.164, from what a person types: `+14155550123`, `(415) 555-0123` and `415-555-0123` (US
 * assumed without a country code) all give `+14155550123`. `undefined` when it cannot be a phone number (wrong
 * length for its country, letters). Deliberately lenient beyond that: a claim must not fail on a number the
 * metadata does not know yet; the SMS provider is the judge of deliverability.
 */
export function normalizePhone(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 40 || /[a-z]/i.test(value)) return undefined;
  const parsed = parsePhoneNumberFromString(value.trim(), 'US');
  return parsed !== undefined && parsed.isPossible() ? parsed.number : undefined;
}

/**
 * The country (ISO 3166 alpha-2) a phone in E.164 belongs to, as the numbering plan's metadata says: `US` for
 * +1 415..., `CA` for +1 613..., `JM` for +1 876... (a +1 number is not necessarily North American).
 * `undefined` when the metadata cannot place it (an unassigned area code): such a number is never texted.
 */
export function phoneCountry(e164: string): string | undefined {
  return parsePhoneNumberFromString(e164)?.country;
}

export function IsDialablePhone(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDialablePhone',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a valid phone number (E.164, or a US number)`, ...options },
      validator: { validate: (value: unknown) => normalizePhone(value) !== undefined },
    });
}

/**
 * Query strings carry text: digits become an integer, anything else is left as it is so `@IsInt` refuses it
 * (`1.5`, `abc`, `1e3`, a repeated parameter). JSON bodies are not converted: `"12"` there is not an integer.
 */
export const QueryInt = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value,
  );

/** Has something other than white space. */
export function hasText(value: unknown): boolean {
  return typeof value === 'string' && /\S/.test(value);
}

export function HasText(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'hasText',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must not be empty`, ...options },
      validator: { validate: hasText },
    });
}

/** The schemes a photo URL may have: the staff desk shows photos as links, so only web addresses. */
export const PHOTO_URL_SCHEMES: readonly string[] = ['https:', 'http:'];

/**
 * Characters that change how text around them is shown without being seen: the bidirectional controls (U+202E turns
 * `https://example.com/gpj.exe` into what reads as `...exe.jpg`), zero-width ones, and every other Unicode format
 * character (`Cf`). A link holding one shows staff an address other than the one it opens.
 */
const INVISIBLE_FORMATTING = /\p{Cf}/u;

/**
 * Why a photo's address is refused, as the end of a message after the field's name, or undefined when it is fine.
 * It must be an absolute `https:` or `http:` URL with a host, and hold nothing a browser would strip before reading
 * it (white space, control characters): `javascript:`, `data:`, `ftp:`, `file:` and relative URLs are refused, since
 * the desk renders photos as links and a stored `javascript:` link is one click from running. A user name or password
 * (`https://user:pass@host/`) is refused too: a photo never needs one, it would be shown to every member of the
 * staff, and `https://example.com@evil.example/` opens the host after the `@`. So are invisible formatting
 * characters ({@link INVISIBLE_FORMATTING}).
 */
export function photoUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be an https:// or http:// URL';
  if (INVISIBLE_FORMATTING.test(value))
    return 'must not hold invisible or text-direction characters (such as U+202E), which hide the real address';
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'must be an https:// or http:// URL';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an https:// or http:// URL';
  }
  if (!PHOTO_URL_SCHEMES.includes(url.protocol) || url.hostname === '') return 'must be an https:// or http:// URL';
  if (url.username !== '' || url.password !== '' || /^[a-z]+:\/\/[^/?#]*@/i.test(value))
    return 'must not hold a user name or password (user:password@)';
  return undefined;
}

/** A photo's address ({@link photoUrlProblem} finds nothing wrong with it). */
export function isPhotoUrl(value: unknown): boolean {
  return photoUrlProblem(value) === undefined;
}

/**
 * `@IsPhotoUrl()`: the value is a photo URL ({@link isPhotoUrl}); with `{ orEmpty: true }` the empty string too, the
 * "no photo" an `image_url` has always been able to say (the views answer `""` when there is none).
 */
export function IsPhotoUrl(settings: { orEmpty?: boolean } = {}, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isPhotoUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [settings.orEmpty === true],
      options: {
        // For `{ each: true }` the value is the whole list: the message names the first item's problem.
        message: (args) => {
          const items: unknown[] = Array.isArray(args.value) ? args.value : [args.value];
          const problems = items.map((item) =>
            settings.orEmpty === true && item === '' ? undefined : photoUrlProblem(item),
          );
          return `${args.property} ${problems.find(Boolean) ?? 'must be an https:// or http:// URL'}`;
        },
        ...options,
      },
      validator: {
        validate: (value: unknown, args) => (args?.constraints[0] === true && value === '') || isPhotoUrl(value),
      },
    });
}
