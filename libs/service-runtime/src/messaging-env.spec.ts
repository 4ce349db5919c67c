import { messagingConfigFromEnv } from './messaging-env';

describe('messaging configuration', () => {
  it('defaults to the local NATS and the sb prefix', () => {
    expect(messagingConfigFromEnv({})).toEqual({
      natsUrl: 'nats://127.0.0.1:4222',
      prefix: 'sb',
      requestTimeoutMs: 5000,
    });
  });

  it('refuses a prefix that would break subjects', () => {
    expect(() => messagingConfigFromEnv({ NATS_SUBJECT_PREFIX: 'a.b' })).toThrow(/NATS_SUBJECT_PREFIX/);
    expect(() => messagingConfigFromEnv({ NATS_REQUEST_TIMEOUT_MS: '-1' })).toThrow(/NATS_REQUEST_TIMEOUT_MS/);
  });

  it('connects as the configured NATS user, and refuses half a user', () => {
    expect(messagingConfigFromEnv({ NATS_USER: 'gateway', NATS_PASSWORD: 'pw' }).credentials).toEqual({
      user: 'gateway',
      password: 'pw',
    });
    expect(() => messagingConfigFromEnv({ NATS_USER: 'gateway' })).toThrow(/only NATS_USER is set/);
    expect(() => messagingConfigFromEnv({ NATS_PASSWORD: 'pw' })).toThrow(/only NATS_PASSWORD is set/);
  });

  it("takes a CA for the server's TLS certificate", () => {
    expect(messagingConfigFromEnv({ NATS_TLS_CA: '/etc/nats-ca/ca.crt' }).tlsCaFile).toBe('/etc/nats-ca/ca.crt');
    expect(messagingConfigFromEnv({}).tlsCaFile).toBeUndefined();
  });
});
