import {
  LIVE_KEY_PREFIX,
  TEST_KEY_PREFIX,
  displayHint,
  hashSecret,
  looksLikeKey,
  newSecret,
  sameHash,
} from './api-key-secret';

describe('API key secrets', () => {
  it('carry the live prefix and 256 bits of randomness, never twice the same', () => {
    const a = newSecret();
    const b = newSecret();
    expect(a.startsWith(LIVE_KEY_PREFIX)).toBe(true);
    expect(Buffer.from(a.slice(LIVE_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('carry the test prefix when made for test mode', () => {
    const secret = newSecret('test');
    expect(secret.startsWith(TEST_KEY_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(TEST_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(displayHint(secret)).toBe(`${secret.slice(0, 12)}…`);
  });

  it('recognise only well-formed keys', () => {
    expect(looksLikeKey(newSecret())).toBe(true);
    expect(looksLikeKey(newSecret('test'))).toBe(true);
    expect(looksLikeKey(`sk_prod_${'a'.repeat(43)}`)).toBe(false);
    expect(looksLikeKey(`sk_test_${'a'.repeat(42)}`)).toBe(false);
    expect(looksLikeKey(`${LIVE_KEY_PREFIX}${'a'.repeat(42)}`)).toBe(false);
    expect(looksLikeKey(`${LIVE_KEY_PREFIX}${'a'.repeat(42)}!`)).toBe(false);
  });

  it('hash to a stable SHA-256 digest compared in constant time', () => {
    const secret = newSecret();
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(sameHash(hashSecret(secret), hashSecret(secret))).toBe(true);
    expect(sameHash(hashSecret(secret), hashSecret(newSecret()))).toBe(false);
    expect(sameHash(hashSecret(secret), 'abcd')).toBe(false);
  });

  it('show only a short hint of the secret', () => {
    const secret = newSecret();
    expect(displayHint(secret)).toBe(`${secret.slice(0, 12)}…`);
  });
});
