/** Shared validation vocabulary so every DTO says the same thing the same way. */
export const ACCOUNT_ID_PATTERN = /^acct_[0-9a-z]{20}$/;
export const MAX_NAME_LENGTH = 200;
export const MAX_TEXT_LENGTH = 2000;
