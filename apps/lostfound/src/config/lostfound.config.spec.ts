import { loadLostfoundConfig } from './lostfound.config';

describe('lostfound configuration', () => {
  it('defaults to the simulated SMS provider, a 10 s retry of unsent texts and 200 texts per account, 3 per phone a day', () => {
    expect(loadLostfoundConfig({})).toEqual({
      smsProvider: 'simulated',
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
    expect(() => loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio' })).toThrow(/LOSTFOUND_SMS_PROVIDER/);
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
