import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@switchboard/service-runtime';
import { loadGatewayConfig } from './gateway.config';

const base = { ADMIN_TOKEN: 'a-long-enough-admin-token' };

describe('gateway configuration', () => {
  it('uses the documented defaults', () => {
    const config = loadGatewayConfig({ ...base });
    expect(config).toMatchObject({
      port: 3000,
      adminPort: 3001,
      adminHost: '127.0.0.1',
      bodyLimitBytes: 65536,
      rateLimit: { limit: 60, windowSeconds: 60 },
      trustedProxies: [],
    });
  });

  it('requires ADMIN_TOKEN in production', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
  });

  it('keeps a generated development token in DATA_DIR/admin-token, readable only by its owner, and reuses it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-config-'));
    try {
      const first = loadGatewayConfig({ DATA_DIR: dataDir });
      const file = join(dataDir, 'admin-token');
      expect(first.adminTokenFile).toBe(file);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.adminToken);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadGatewayConfig({ DATA_DIR: dataDir }).adminToken).toBe(first.adminToken);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses bad ports, a short token, unpaired TLS files and proxies that are not addresses', () => {
    expect(() => loadGatewayConfig({ ...base, PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN/);
    expect(() => loadGatewayConfig({ ...base, TLS_CERT: '/x.pem' })).toThrow(/TLS_CERT and TLS_KEY/);
    expect(() => loadGatewayConfig({ ...base, TRUSTED_PROXIES: '10.0.0.1,proxy.local' })).toThrow(/proxy\.local/);
    expect(() => loadGatewayConfig({ ...base, RATE_LIMIT_REQUESTS: '0' })).toThrow(/RATE_LIMIT_REQUESTS/);
  });

  it('refuses a guessable ADMIN_TOKEN: blank, spaced, repeated or patterned, with the reason and how to make one', () => {
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: ' '.repeat(16) })).toThrow(
      /ADMIN_TOKEN must be visible ASCII characters only.*openssl rand/,
    );
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'correct horse battery staple' })).toThrow(/visible ASCII/);
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'tab\there-and-long-enough' })).toThrow(/visible ASCII/);
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'a'.repeat(40) })).toThrow(
      /ADMIN_TOKEN is too easy to guess \(about 0 bits; at least 64 needed\)/,
    );
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'ab'.repeat(20) })).toThrow(/too easy to guess/);
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'passwordpassword' })).toThrow(/too easy to guess/);
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'x'.repeat(15) })).toThrow(/at least 16 characters/);
  });

  it('accepts random tokens and the end-to-end tests token', () => {
    for (const token of [
      'test-admin-token-0123456789abcdef',
      'adm_2Vq0bS9dQk3W1vJ7yN4fHc8LmPzXeR5t',
      'Zk4+Qp9/Lm2xWv7rT0bYcN3g8Hs6Jd1f',
      '0123456789abcdef',
    ]) {
      expect(loadGatewayConfig({ ADMIN_TOKEN: token }).adminToken).toBe(token);
    }
  });

  it('accepts a previous admin token during a rotation, with the same length rule', () => {
    expect(loadGatewayConfig({ ...base, ADMIN_TOKEN_PREVIOUS: 'the-old-admin-token-123' }).previousAdminToken).toBe(
      'the-old-admin-token-123',
    );
    expect(loadGatewayConfig({ ...base }).previousAdminToken).toBeUndefined();
    expect(() => loadGatewayConfig({ ...base, ADMIN_TOKEN_PREVIOUS: 'short' })).toThrow(/ADMIN_TOKEN_PREVIOUS/);
    expect(() => loadGatewayConfig({ ...base, ADMIN_TOKEN_PREVIOUS: ' '.repeat(16) })).toThrow(
      /ADMIN_TOKEN_PREVIOUS must be visible ASCII/,
    );
    expect(() => loadGatewayConfig({ ...base, ADMIN_TOKEN_PREVIOUS: '1'.repeat(32) })).toThrow(
      /ADMIN_TOKEN_PREVIOUS is too easy to guess/,
    );
  });

  it('reads the HTTP time-outs and connection caps, with documented defaults and consistent values', () => {
    expect(loadGatewayConfig({ ...base }).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      maxConnections: 10_000,
      maxConnectionsPerClient: 100,
    });
    const env = {
      ...base,
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000',
      HTTP_MAX_CONNECTIONS: '500',
      HTTP_MAX_CONNECTIONS_PER_CLIENT: '20',
    };
    expect(loadGatewayConfig(env).http).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 500,
      maxConnectionsPerClient: 20,
    });
    expect(() => loadGatewayConfig({ ...base, HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadGatewayConfig({ ...base, HTTP_MAX_CONNECTIONS_PER_CLIENT: '20000' })).toThrow(
      /HTTP_MAX_CONNECTIONS_PER_CLIENT must not be larger/,
    );
    expect(() => loadGatewayConfig({ ...base, HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(
      /HTTP_REQUEST_TIMEOUT_MS must be a positive integer/,
    );
  });

  it('keeps a webhook/listen stream open an hour at most by default, WEBHOOK_LISTEN_MAX_SECONDS from 1 s to a day', () => {
    expect(loadGatewayConfig({ ...base }).webhookListenMaxMs).toBe(3_600_000);
    expect(loadGatewayConfig({ ...base, WEBHOOK_LISTEN_MAX_SECONDS: '2' }).webhookListenMaxMs).toBe(2000);
    for (const bad of ['0', '86401', '1.5', 'an hour'])
      expect(() => loadGatewayConfig({ ...base, WEBHOOK_LISTEN_MAX_SECONDS: bad })).toThrow(
        /WEBHOOK_LISTEN_MAX_SECONDS must be an integer between 1 and 86400/,
      );
  });

  it('reads trusted proxies as addresses and ranges', () => {
    expect(loadGatewayConfig({ ...base, TRUSTED_PROXIES: '10.20.0.0/16, ::1, 2001:db8::/64' }).trustedProxies).toEqual([
      '10.20.0.0/16',
      '::1',
      '2001:db8::/64',
    ]);
  });

  it('refuses trusted ranges wider than an ingress needs, and ranges with host bits set', () => {
    expect(() => loadGatewayConfig({ ...base, TRUSTED_PROXIES: '10.0.0.0/8' })).toThrow(
      /TRUSTED_PROXIES: 10\.0\.0\.0\/8 trusts far more than an ingress \(at most a \/16\)/,
    );
    expect(() => loadGatewayConfig({ ...base, TRUSTED_PROXIES: '192.0.2.1, 0.0.0.0/0' })).toThrow(
      /0\.0\.0\.0\/0 trusts far more/,
    );
    expect(() => loadGatewayConfig({ ...base, TRUSTED_PROXIES: '2001:db8::/32' })).toThrow(/at most a \/64/);
    expect(() => loadGatewayConfig({ ...base, TRUSTED_PROXIES: '10.1.2.3/16' })).toThrow(
      /TRUSTED_PROXIES: 10\.1\.2\.3\/16 has host bits set/,
    );
  });

  it('serves the console from apps/console/dist and names it http://127.0.0.1:<PORT>/console/ by default', () => {
    const config = loadGatewayConfig({ ...base, PORT: '3300' });
    expect(config.console.distDir).toBe(join(__dirname, '..', '..', '..', 'console', 'dist'));
    expect(config.console).toMatchObject({ url: 'http://127.0.0.1:3300/console/', origin: 'http://127.0.0.1:3300' });
  });

  it('reads CONSOLE_URL and CONSOLE_DIST_DIR, adding the trailing slash and refusing what is not a base URL', () => {
    const config = loadGatewayConfig({
      ...base,
      CONSOLE_URL: 'https://console.example.com/console',
      CONSOLE_DIST_DIR: '/srv/console',
    });
    expect(config.console).toEqual({
      distDir: '/srv/console',
      url: 'https://console.example.com/console/',
      origin: 'https://console.example.com',
    });
    expect(() => loadGatewayConfig({ ...base, CONSOLE_URL: 'console.example.com' })).toThrow(/CONSOLE_URL/);
    expect(() => loadGatewayConfig({ ...base, CONSOLE_URL: 'ftp://example.com/' })).toThrow(/http or https/);
    expect(() => loadGatewayConfig({ ...base, CONSOLE_URL: 'https://example.com/console/#x' })).toThrow(/fragment/);
  });

  it('requires CONSOLE_URL in production, where e-mailed links must not point at 127.0.0.1, and defaults it elsewhere', () => {
    const production = { ...base, NODE_ENV: 'production' };
    for (const unset of [{}, { CONSOLE_URL: '' }, { CONSOLE_URL: '  ' }])
      expect(() => loadGatewayConfig({ ...production, ...unset })).toThrow(
        'CONSOLE_URL is required when NODE_ENV=production: invitation and password-reset e-mails link to it',
      );
    expect(loadGatewayConfig({ ...production, CONSOLE_URL: 'https://api.example.com/console/' }).console.url).toBe(
      'https://api.example.com/console/',
    );
    // npm start and the tests (NODE_ENV development or test) keep the local default.
    for (const NODE_ENV of [undefined, 'development', 'test'])
      expect(loadGatewayConfig({ ...base, NODE_ENV, PORT: '4100' }).console.url).toBe('http://127.0.0.1:4100/console/');
  });
});
