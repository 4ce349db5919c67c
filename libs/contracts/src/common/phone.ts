import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * US phone numbers are checked with libphonenumber's full metadata, not a home-made pattern: the value must be
 * written in E.164 (`+1` and ten digits, nothing else) and be a valid number of the US numbering plan.
 */
export function isUsE164(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\+1\d{10}$/.test(value)) return false;
  const parsed = parsePhoneNumberFromString(value);
  return parsed !== undefined && parsed.isValid() && parsed.country === 'US';
}

/** Any valid E.164 number (callers may ring from abroad). */
export function isE164(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\+[1-9]\d{6,14}$/.test(value)) return false;
  const parsed = parsePhoneNumberFromString(value);
  return parsed !== undefined && parsed.isPossible();
}

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
