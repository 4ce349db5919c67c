import { messagingConfigFromEnv } from './messaging-env';

describe('messaging configuration', () => {
  it('defaults to the local NATS and the sb prefix', () => {
    expect(messagingConfigFromEnv({})).toEqual({
      natsUrl: 'nats://127.0.0.1:4222',
      prefix: 'sb',
      requestTimeoutMs: 5000,
      streamReplicas: 1,
    });
  });

  it('keeps as many copies of each stream as NATS_STREAM_REPLICAS says, 1 to 5', () => {
    expect(messagingConfigFromEnv({ NATS_STREAM_REPLICAS: '3' }).streamReplicas).toBe(3);
    expect(() => messagingConfigFromEnv({ NATS_STREAM_REPLICAS: '0' })).toThrow(/NATS_STREAM_REPLICAS/);
    expect(() => messagingConfigFromEnv({ NATS_STREAM_REPLICAS: '6' })).toThrow(/NATS_STREAM_REPLICAS/);
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
