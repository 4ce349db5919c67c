import { loadLostfoundConfig } from './lostfound.config';

describe('lostfound configuration', () => {
  it('defaults to the simulated SMS provider, a 10 s retry of unsent texts and 200 texts per account, 3 per phone a day', () => {
    expect(loadLostfoundConfig({})).toEqual({
      sms: { provider: 'simulated' },
      notifyRetryMs: 10_000,
      textsPerAccountPerDay: 200,
      textsPerPhonePerDay: 3,
    });
  });

  it('reads the daily texting limits', () => {
    const config = loadLostfoundConfig({
      LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT: '50',
      LOSTFOUND_SMS_PHONE_DAILY_LIMIT: ' 1 ',
    });
    expect(config).toMatchObject({ textsPerAccountPerDay: 50, textsPerPhonePerDay: 1 });
  });

  it('refuses an SMS provider that does not exist, naming the variable', () => {
    expect(() => loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'carrier-pigeon' })).toThrow(/LOSTFOUND_SMS_PROVIDER/);
  });

  const twilio = { TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'token' };

  it('texts through Twilio from a number or a Messaging Service', () => {
    expect(
      loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio', ...twilio, TWILIO_SMS_FROM: '+14155550100' }).sms,
    ).toEqual({
      provider: 'twilio',
      twilio: { accountSid: twilio.TWILIO_ACCOUNT_SID, authToken: 'token', apiBaseUrl: undefined },
      sender: { from: '+14155550100' },
    });
    const service = `MG${'a'.repeat(32)}`;
    expect(
      loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio', ...twilio, TWILIO_MESSAGING_SERVICE_SID: service }).sms,
    ).toMatchObject({ sender: { messagingServiceSid: service } });
  });

  it('refuses a half-configured Twilio, naming what is missing', () => {
    expect(() => loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio' })).toThrow(
      /missing: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN/,
    );
    expect(() =>
      loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: twilio.TWILIO_ACCOUNT_SID }),
    ).toThrow(/missing: TWILIO_AUTH_TOKEN/);
    expect(() => loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio', ...twilio })).toThrow(
      /missing: TWILIO_SMS_FROM/,
    );
    expect(() =>
      loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio', ...twilio, TWILIO_SMS_FROM: '4155550100' }),
    ).toThrow(/E.164/);
  });

  it.each(['0', '-5', 'soon', '1.5'])('refuses LOSTFOUND_NOTIFY_RETRY_MS=%j', (value) => {
    expect(() => loadLostfoundConfig({ LOSTFOUND_NOTIFY_RETRY_MS: value })).toThrow(/LOSTFOUND_NOTIFY_RETRY_MS/);
  });

  it.each([
    ['LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT', '0'],
    ['LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT', 'lots'],
    ['LOSTFOUND_SMS_PHONE_DAILY_LIMIT', '-1'],
    ['LOSTFOUND_SMS_PHONE_DAILY_LIMIT', '2.5'],
  ])('refuses %s=%j, naming the variable', (name, value) => {
    expect(() => loadLostfoundConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
