/** Shared validation vocabulary so every DTO says the same thing the same way. */
/** A live account (`acct_` and 20 base-36 characters) or its test twin (`acct_test_...`, account-mode.ts). */
export const ACCOUNT_ID_PATTERN = /^acct_(?:test_)?[0-9a-z]{20}$/;
export const MAX_NAME_LENGTH = 200;
export const MAX_TEXT_LENGTH = 2000;
