import { loadLostfoundConfig } from './lostfound.config';

describe('lostfound configuration', () => {
  it('defaults to the simulated SMS provider and a 10 s retry of unsent texts', () => {
    expect(loadLostfoundConfig({})).toEqual({ smsProvider: 'simulated', notifyRetryMs: 10_000 });
  });

  it('refuses an SMS provider that does not exist, naming the variable', () => {
    expect(() => loadLostfoundConfig({ LOSTFOUND_SMS_PROVIDER: 'twilio' })).toThrow(/LOSTFOUND_SMS_PROVIDER/);
  });

  it.each(['0', '-5', 'soon', '1.5'])('refuses LOSTFOUND_NOTIFY_RETRY_MS=%j', (value) => {
    expect(() => loadLostfoundConfig({ LOSTFOUND_NOTIFY_RETRY_MS: value })).toThrow(/LOSTFOUND_NOTIFY_RETRY_MS/);
  });
});
