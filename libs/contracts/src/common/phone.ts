import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * US phone numbers are checked with libphonenumber's full metadata, not a home-made pattern: the value must be
 * written in E.164 (`+1` and ten digits, nothing else) and be a valid number of the US numbering plan.
 */
export function isUsE164(value: unknown): value is string {
  return typeof value === 'string' && /^\+1\d{10}$/.test(value) && usNumberVerdicts.of(value);
}

/** Any valid E.164 number (callers may ring from abroad). */
export function isE164(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^\+[1-9]\d{6,14}$/.test(value) &&
    (NANP_TEN_DIGITS.test(value) || e164Verdicts.of(value))
  );
}

/**
 * `+1` and ten digits: libphonenumber's answer for any of them is "possible" (the North American plan's numbers are
 * ten digits, whatever the area code; phone.spec.ts asks it for every area code and a spread of exchanges). Said
 * without asking it: a report's caller is usually a number not seen before, and its parse was about 3% of the
 * gateway's and of calls-media's CPU in the event pipeline (docs/performance.md, eighteenth pass).
 */
const NANP_TEN_DIGITS = /^\+1\d{10}$/;

/** Verdicts remembered per rule, the oldest forgotten first. */
export const REMEMBERED_PHONE_VERDICTS = 4096;

/**
 * libphonenumber's verdicts on strings already in E.164 shape, remembered. A call's numbers are checked at every hop
 * (the HTTP body, each RPC and each consumed event) and our own numbers in every call: the parse was 2-4% of the
 * gateway's, calls-media's and numbers-billing's CPU in the event pipeline (docs/performance.md, eighth pass), and a
 * verdict depends on the string alone. Only strings the pattern let through are kept, so a key is at most 16
 * characters and the map at most a few hundred KiB.
 */
export class PhoneVerdicts {
  private readonly verdicts = new Map<string, boolean>();

  constructor(
    private readonly rule: (e164: string) => boolean,
    private readonly capacity = REMEMBERED_PHONE_VERDICTS,
  ) {}

  of(e164: string): boolean {
    const known = this.verdicts.get(e164);
    if (known !== undefined) return known;
    const verdict = this.rule(e164);
    if (this.verdicts.size >= this.capacity) this.verdicts.delete(this.verdicts.keys().next().value as string);
    this.verdicts.set(e164, verdict);
    return verdict;
  }

  get size(): number {
    return this.verdicts.size;
  }
}

const usNumberVerdicts = new PhoneVerdicts((e164) => {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed !== undefined && parsed.isValid() && parsed.country === 'US';
});

const e164Verdicts = new PhoneVerdicts((e164) => parsePhoneNumberFromString(e164)?.isPossible() ?? false);

/** The NANP area code of a `+1` number: the three digits after the country code. */
export function areaCodeOf(e164: string): string {
  return e164.slice(2, 5);
}

/** A NANP area code: three digits, the first 2-9, not an N11 service code. */
export function isUsAreaCode(value: unknown): value is string {
  return typeof value === 'string' && /^[2-9]\d{2}$/.test(value) && !/^[2-9]11$/.test(value);
}

export function IsUsE164(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isUsE164',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be a valid US phone number in E.164 form (+1 and 10 digits)`,
        ...options,
      },
      validator: { validate: isUsE164 },
    });
}

export function IsE164(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isE164',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a phone number in E.164 form (+ and digits)`, ...options },
      validator: { validate: isE164 },
    });
}

export function IsUsAreaCode(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isUsAreaCode',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a US area code (three digits, first 2-9)`, ...options },
      validator: { validate: isUsAreaCode },
    });
}
