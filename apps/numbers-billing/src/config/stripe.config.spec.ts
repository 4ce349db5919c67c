import { loadStripeConfig } from './stripe.config';

describe('loadStripeConfig', () => {
  it('is off with nothing set', () => {
    expect(loadStripeConfig({}, true)).toBeUndefined();
  });

  it('takes a secret or restricted key', () => {
    expect(loadStripeConfig({ STRIPE_SECRET_KEY: 'sk_live_abc123' }, true)).toEqual({
      secretKey: 'sk_live_abc123',
      apiBaseUrl: undefined,
    });
    expect(loadStripeConfig({ STRIPE_SECRET_KEY: 'rk_test_abc123' }, false)?.secretKey).toBe('rk_test_abc123');
    expect(() => loadStripeConfig({ STRIPE_SECRET_KEY: 'pk_live_abc123' }, false)).toThrow(/secret or restricted/);
  });

  it('refuses a half configuration, naming what is missing', () => {
    expect(() => loadStripeConfig({ STRIPE_API_BASE_URL: 'http://127.0.0.1:12111' }, false)).toThrow(
      /missing: STRIPE_SECRET_KEY/,
    );
  });

  it('points at a stand-in only outside production', () => {
    const env = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_API_BASE_URL: 'http://127.0.0.1:12111' };
    expect(loadStripeConfig(env, false)?.apiBaseUrl?.href).toBe('http://127.0.0.1:12111/');
    expect(() => loadStripeConfig(env, true)).toThrow(/stand-ins only/);
    expect(() => loadStripeConfig({ ...env, STRIPE_API_BASE_URL: 'ftp://x' }, false)).toThrow(/http or https/);
  });
});
