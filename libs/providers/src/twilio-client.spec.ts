import { loadTwilioConfig } from './twilio-client';

const sid = `AC${'0123456789abcdef'.repeat(2)}`;

describe('loadTwilioConfig', () => {
  it('is off with nothing set', () => {
    expect(loadTwilioConfig({}, true)).toBeUndefined();
  });

  it('reads the account SID and auth token', () => {
    expect(loadTwilioConfig({ TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: ' token ' }, true)).toEqual({
      accountSid: sid,
      authToken: 'token',
      apiBaseUrl: undefined,
    });
  });

  it('refuses a half configuration, naming the missing variable', () => {
    expect(() => loadTwilioConfig({ TWILIO_ACCOUNT_SID: sid }, false)).toThrow(/missing: TWILIO_AUTH_TOKEN$/);
    expect(() => loadTwilioConfig({ TWILIO_AUTH_TOKEN: 'token' }, false)).toThrow(/missing: TWILIO_ACCOUNT_SID$/);
    expect(() => loadTwilioConfig({ TWILIO_API_BASE_URL: 'http://127.0.0.1:1' }, false)).toThrow(
      /missing: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN/,
    );
  });

  it('refuses a SID that is not an account SID', () => {
    expect(() => loadTwilioConfig({ TWILIO_ACCOUNT_SID: 'SK123', TWILIO_AUTH_TOKEN: 'token' }, false)).toThrow(
      /TWILIO_ACCOUNT_SID/,
    );
  });

  it('points at a stand-in only outside production', () => {
    const env = { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: 'token', TWILIO_API_BASE_URL: 'http://127.0.0.1:12112' };
    expect(loadTwilioConfig(env, false)?.apiBaseUrl?.origin).toBe('http://127.0.0.1:12112');
    expect(() => loadTwilioConfig(env, true)).toThrow(/stand-ins only/);
  });
});
