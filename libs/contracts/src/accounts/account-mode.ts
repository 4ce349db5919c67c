/**
 * Test mode (docs/adr/0087-test-mode.md): an account's test data lives under a twin account whose id is the live
 * id with `test_` after `acct_`. Every service tells the mode from the account id alone, so background work (a
 * billing cycle, an auto-top-up, a release) knows it without a request, and test data can never be read with a live
 * key: it belongs to another account.
 */
export const API_KEY_MODES = ['live', 'test'] as const;
export type ApiKeyMode = (typeof API_KEY_MODES)[number];

const LIVE_PREFIX = 'acct_';
const TEST_PREFIX = 'acct_test_';

/** True for a test twin's id (`acct_test_...`). */
export function isTestAccount(accountId: string): boolean {
  return accountId.startsWith(TEST_PREFIX);
}

/** `live` or `test`, from the account id. */
export function accountMode(accountId: string): ApiKeyMode {
  return isTestAccount(accountId) ? 'test' : 'live';
}

/** The test twin of an account (itself when it is one). */
export function testAccountOf(accountId: string): string {
  return isTestAccount(accountId) ? accountId : `${TEST_PREFIX}${accountId.slice(LIVE_PREFIX.length)}`;
}

/** The live account of a twin (itself when it is live). */
export function liveAccountOf(accountId: string): string {
  return isTestAccount(accountId) ? `${LIVE_PREFIX}${accountId.slice(TEST_PREFIX.length)}` : accountId;
}

/** The account a key of `mode` acts for. */
export function accountForMode(liveAccountId: string, mode: ApiKeyMode): string {
  return mode === 'test' ? testAccountOf(liveAccountId) : liveAccountOf(liveAccountId);
}
