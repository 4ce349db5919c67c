import { ConfigError } from '@switchboard/service-runtime';
import { loadWebhookDispatcherConfig } from './webhook-dispatcher.config';

describe('loadWebhookDispatcherConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadWebhookDispatcherConfig({});
    expect(config).toMatchObject({
      backoffBaseMs: 30000,
      backoffMaxMs: 600_000,
      timeoutMs: 10_000,
      concurrency: 32,
      hostConcurrency: 4,
      connectionReuseWaitMs: 250,
    });
    expect([...config.egress.allowedPrivateHosts]).toEqual([]);
  });

  it('reads every variable', () => {
    const config = loadWebhookDispatcherConfig({
      WEBHOOK_BACKOFF_BASE_MS: '250',
      WEBHOOK_BACKOFF_MAX_MS: '5000',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_CONCURRENCY: '8',
      WEBHOOK_HOST_CONCURRENCY: '2',
      WEBHOOK_CONNECTION_REUSE_WAIT_MS: '0',
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'Receiver.Local, 10.0.0.5',
    });
    expect(config).toMatchObject({
      backoffBaseMs: 250,
      backoffMaxMs: 5000,
      timeoutMs: 2000,
      concurrency: 8,
      hostConcurrency: 2,
      connectionReuseWaitMs: 0,
    });
    expect([...config.egress.allowedPrivateHosts]).toEqual(['receiver.local', '10.0.0.5']);
  });

  it('keeps JetStream from redelivering while a lookup, the reuse wait and an attempt can still be running', () => {
    const config = loadWebhookDispatcherConfig({
      WEBHOOK_TIMEOUT_MS: '3000',
      NATS_REQUEST_TIMEOUT_MS: '2000',
      WEBHOOK_CONNECTION_REUSE_WAIT_MS: '5000',
    });
    expect(config.leaseMs).toBeGreaterThan(3000);
    expect(config.ackWaitMs).toBeGreaterThanOrEqual(config.leaseMs + 2000 + 5000);
  });

  it('never lets one host use more than the whole concurrency', () => {
    expect(
      loadWebhookDispatcherConfig({ WEBHOOK_CONCURRENCY: '3', WEBHOOK_HOST_CONCURRENCY: '10' }).hostConcurrency,
    ).toBe(3);
  });

  it.each([
    ['WEBHOOK_BACKOFF_BASE_MS', '0'],
    ['WEBHOOK_BACKOFF_BASE_MS', 'soon'],
    ['WEBHOOK_TIMEOUT_MS', '1.5'],
    ['WEBHOOK_TIMEOUT_MS', '50'],
    ['WEBHOOK_CONCURRENCY', '-1'],
  ])('stops with a clear message for %s=%s', (name, value) => {
    expect(() => loadWebhookDispatcherConfig({ [name]: value })).toThrow(
      new ConfigError(`${name} must be an integer >= ${name === 'WEBHOOK_TIMEOUT_MS' ? 100 : 1} (got "${value}")`),
    );
  });

  it.each(['-1', '10001', 'briefly'])('stops with a clear message for WEBHOOK_CONNECTION_REUSE_WAIT_MS=%s', (value) => {
    expect(() => loadWebhookDispatcherConfig({ WEBHOOK_CONNECTION_REUSE_WAIT_MS: value })).toThrow(
      new ConfigError(`WEBHOOK_CONNECTION_REUSE_WAIT_MS must be an integer between 0 and 10000 (got "${value}")`),
    );
  });

  it('refuses a maximum backoff below the base', () => {
    expect(() =>
      loadWebhookDispatcherConfig({ WEBHOOK_BACKOFF_BASE_MS: '5000', WEBHOOK_BACKOFF_MAX_MS: '1000' }),
    ).toThrow(ConfigError);
  });
});

describe('WEBHOOK_TEST_CA_FILE', () => {
  it('is refused outside tests, so production trust goes through NODE_EXTRA_CA_CERTS only', () => {
    expect(() => loadWebhookDispatcherConfig({ WEBHOOK_TEST_CA_FILE: '/tmp/ca.pem', NODE_ENV: 'production' })).toThrow(
      /NODE_EXTRA_CA_CERTS/,
    );
  });
});
