import { eventSubject, messagingConfigFromEnv, rpcSubject, streamName } from './messaging.config';

describe('messaging configuration', () => {
  it('defaults to the local NATS and the sb prefix', () => {
    expect(messagingConfigFromEnv({})).toEqual({ natsUrl: 'nats://127.0.0.1:4222', prefix: 'sb', requestTimeoutMs: 5000 });
  });

  it('namespaces subjects and streams by prefix', () => {
    const config = { prefix: 'e2e-ab1' };
    expect(rpcSubject(config, 'numbers.v1.list')).toBe('e2e-ab1.numbers.v1.list');
    expect(eventSubject(config, 'call.completed')).toBe('e2e-ab1.events.v1.call.completed');
    expect(streamName(config, 'CALLS')).toBe('E2E_AB1_CALLS');
  });

  it('refuses a prefix that would break subjects', () => {
    expect(() => messagingConfigFromEnv({ NATS_SUBJECT_PREFIX: 'a.b' })).toThrow(/NATS_SUBJECT_PREFIX/);
    expect(() => messagingConfigFromEnv({ NATS_REQUEST_TIMEOUT_MS: '-1' })).toThrow(/NATS_REQUEST_TIMEOUT_MS/);
  });

  it('connects as the configured NATS user, and refuses half a user', () => {
    expect(messagingConfigFromEnv({ NATS_USER: 'gateway', NATS_PASSWORD: 'pw' }).credentials).toEqual({ user: 'gateway', password: 'pw' });
    expect(() => messagingConfigFromEnv({ NATS_USER: 'gateway' })).toThrow(/only NATS_USER is set/);
    expect(() => messagingConfigFromEnv({ NATS_PASSWORD: 'pw' })).toThrow(/only NATS_PASSWORD is set/);
  });

  it('takes a CA for the server\'s TLS certificate', () => {
    expect(messagingConfigFromEnv({ NATS_TLS_CA: '/etc/nats-ca/ca.crt' }).tlsCaFile).toBe('/etc/nats-ca/ca.crt');
    expect(messagingConfigFromEnv({}).tlsCaFile).toBeUndefined();
  });
});
