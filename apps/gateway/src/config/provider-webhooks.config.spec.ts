import { ConfigError } from '@switchboard/service-runtime';
import { loadProviderWebhooksConfig } from './provider-webhooks.config';

describe('loadProviderWebhooksConfig', () => {
  it('configures no provider when nothing is set', () => {
    expect(loadProviderWebhooksConfig({}, false)).toEqual({
      publicBaseUrl: undefined,
      stripeWebhookSecret: undefined,
      twilioAuthToken: undefined,
      twilioAccountSid: undefined,
      retellApiKey: undefined,
    });
  });

  it('refuses Twilio without the public URL it signs, naming the missing variable', () => {
    expect(() => loadProviderWebhooksConfig({ TWILIO_AUTH_TOKEN: 'token' }, false)).toThrow(/missing: PUBLIC_BASE_URL/);
  });

  it('refuses Twilio without the account its callbacks must name, or with a malformed one', () => {
    const env = { TWILIO_AUTH_TOKEN: 'token', PUBLIC_BASE_URL: 'https://api.example.com' };
    expect(() => loadProviderWebhooksConfig(env, false)).toThrow(/missing: TWILIO_ACCOUNT_SID/);
    expect(() => loadProviderWebhooksConfig({ ...env, TWILIO_ACCOUNT_SID: 'AC123' }, false)).toThrow(/AC and 32 hex/);
    expect(
      loadProviderWebhooksConfig({ ...env, TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}` }, false).twilioAccountSid,
    ).toBe(`AC${'a'.repeat(32)}`);
  });

  it('refuses a Stripe secret that is not an endpoint signing secret', () => {
    expect(() => loadProviderWebhooksConfig({ STRIPE_WEBHOOK_SECRET: 'sk_live_abc' }, false)).toThrow(ConfigError);
  });

  it('keeps the public URL without its trailing slash and wants https in production', () => {
    const env = {
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      PUBLIC_BASE_URL: 'https://api.example.com/',
    };
    expect(loadProviderWebhooksConfig(env, true).publicBaseUrl).toBe('https://api.example.com');
    expect(() => loadProviderWebhooksConfig({ ...env, PUBLIC_BASE_URL: 'http://api.example.com' }, true)).toThrow(
      /https/,
    );
    expect(() =>
      loadProviderWebhooksConfig({ ...env, PUBLIC_BASE_URL: 'https://api.example.com/?x=1' }, false),
    ).toThrow(/query/);
  });
});
