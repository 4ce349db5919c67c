import { randomBytes } from 'node:crypto';
import { loadNumbersBillingConfig } from './numbers-billing.config';

describe('numbers-billing configuration', () => {
  const production = { NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64') };

  it('reconciles with the provider every 5 minutes unless told otherwise; 0 turns it off', () => {
    expect(loadNumbersBillingConfig(production).providerReconcileIntervalMs).toBe(300_000);
    expect(
      loadNumbersBillingConfig({ ...production, PROVIDER_RECONCILE_INTERVAL_MS: '0' }).providerReconcileIntervalMs,
    ).toBe(0);
    expect(() => loadNumbersBillingConfig({ ...production, PROVIDER_RECONCILE_INTERVAL_MS: '-1' })).toThrow(
      'PROVIDER_RECONCILE_INTERVAL_MS must be a non-negative integer',
    );
  });

  it('accepts the hang-after-sale fault only outside production', () => {
    const test = { ...production, NODE_ENV: 'test' };
    expect(loadNumbersBillingConfig(test).simulatedProviderHangAfterSale).toBe(false);
    expect(
      loadNumbersBillingConfig({ ...test, SIMULATED_PROVIDER_HANG_AFTER_SALE: '1' }).simulatedProviderHangAfterSale,
    ).toBe(true);
    expect(() => loadNumbersBillingConfig({ ...test, SIMULATED_PROVIDER_HANG_AFTER_SALE: 'yes' })).toThrow(
      'SIMULATED_PROVIDER_HANG_AFTER_SALE must be 1 or unset',
    );
    expect(() => loadNumbersBillingConfig({ ...production, SIMULATED_PROVIDER_HANG_AFTER_SALE: '1' })).toThrow(
      'test-only fault',
    );
  });

  it('takes Twilio with the public address its numbers call back, refusing a half configuration', () => {
    const twilio = { TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'token' };
    expect(() => loadNumbersBillingConfig({ ...twilio })).toThrow(/missing: PUBLIC_BASE_URL/);
    expect(() => loadNumbersBillingConfig({ TWILIO_AUTH_TOKEN: 'token' })).toThrow(/missing: TWILIO_ACCOUNT_SID/);
    expect(loadNumbersBillingConfig({ ...twilio, PUBLIC_BASE_URL: 'https://api.example.com/' }).twilio).toMatchObject({
      publicBaseUrl: 'https://api.example.com',
      client: { accountSid: twilio.TWILIO_ACCOUNT_SID },
    });
    expect(loadNumbersBillingConfig({}).twilio).toBeUndefined();
  });
});
