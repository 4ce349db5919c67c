import { ValidateIf, type ValidationOptions } from 'class-validator';

/** Shared validation vocabulary so every DTO says the same thing the same way. */
/** A live account (`acct_` and 20 base-36 characters) or its test twin (`acct_test_...`, account-mode.ts). */
export const ACCOUNT_ID_PATTERN = /^acct_(?:test_)?[0-9a-z]{20}$/;
export const MAX_NAME_LENGTH = 200;
export const MAX_TEXT_LENGTH = 2000;

/** The largest value of a PostgreSQL `integer` (Prisma `Int`) column: a larger one is refused by the database. */
export const MAX_INT4 = 2_147_483_647;

/**
 * `@IsOptional()` without its null: the property may be left out, but `null` is a value, checked by the property's
 * rules and refused with a 400 naming it (`tier must be one of ...`), never taken for "left out" and never passed on to
 * a column that needs a value (issue 47). A property where null means something (`auto_top_up: null` turns auto
 * top-up off) says so with `nullable: true` in its `@ApiProperty` and keeps its own `@ValidateIf`.
 */
export function IsOmittable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, options);
}
