import { bearerToken } from './api-key.guard';

describe('bearerToken', () => {
  it('takes the token of a Bearer authorization header', () => {
    expect(bearerToken('Bearer sk_live_abc')).toBe('sk_live_abc');
  });

  it('reads the scheme case-insensitively, with one or more spaces before the token (RFC 9110)', () => {
    expect(bearerToken('bearer sk_live_abc')).toBe('sk_live_abc');
    expect(bearerToken('BEARER sk_live_abc')).toBe('sk_live_abc');
    expect(bearerToken('bEaReR   sk_live_abc')).toBe('sk_live_abc');
  });

  it('refuses other schemes, a missing token and extra parts', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Bearersk_live_abc')).toBeUndefined();
    expect(bearerToken('Bearer\tsk_live_abc')).toBeUndefined();
  });
});
