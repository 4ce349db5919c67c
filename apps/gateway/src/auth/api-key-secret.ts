import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyMode } from '@switchboard/contracts';

/** The fixed live-key prefix of spec part 5: a leaked key is recognisable by secret scanners. */
export const LIVE_KEY_PREFIX = 'sk_live_';
/** Test keys (docs/adr/0087-test-mode.md), as Stripe names them; the same length as the live prefix. */
export const TEST_KEY_PREFIX = 'sk_test_';

const PREFIXES: Record<ApiKeyMode, string> = { live: LIVE_KEY_PREFIX, test: TEST_KEY_PREFIX };

export function newKeyId(): string {
  return `key_${randomBytes(12).toString('hex')}`;
}

/** 32 random bytes, base64url: 256 bits of entropy, after the mode's prefix. */
export function newSecret(mode: ApiKeyMode = 'live'): string {
  return `${PREFIXES[mode]}${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function displayHint(secret: string): string {
  return `${secret.slice(0, LIVE_KEY_PREFIX.length + 4)}…`;
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A well-formed key: a mode's prefix and 43 base64url characters. Anything else is refused before any lookup. */
export function looksLikeKey(value: string): boolean {
  return (
    value.length === LIVE_KEY_PREFIX.length + 43 &&
    (value.startsWith(LIVE_KEY_PREFIX) || value.startsWith(TEST_KEY_PREFIX)) &&
    /^[A-Za-z0-9_-]+$/.test(value.slice(LIVE_KEY_PREFIX.length))
  );
}
