import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { ConfigError, envIntBetween, envPort, envPositiveInt } from '@switchboard/service-runtime';
import { addressRangeProblems } from '../address-ranges/address-ranges';
import { loadProviderWebhooksConfig, type ProviderWebhooksConfig } from './provider-webhooks.config';
import { GATEWAY_VARIABLES as V } from './variables';

/** Every variable the gateway reads, validated once at start (a bad value stops it with a clear message). */
export interface GatewayConfig {
  production: boolean;
  port: number;
  host: string;
  adminPort: number;
  adminHost: string;
  adminToken: string;
  /** The token being retired during a rotation (`ADMIN_TOKEN_PREVIOUS`): accepted too, until it is unset. */
  previousAdminToken: string | undefined;
  /** Where the generated development admin token was written, when ADMIN_TOKEN was not set. */
  adminTokenFile: string | undefined;
  trustedProxies: string[];
  tls: { cert: string; key: string } | undefined;
  bodyLimitBytes: number;
  /** Connection time-outs and caps of both HTTP servers (docs/adr/0055-the-gateway-edge.md). */
  http: HttpLimits;
  rateLimit: { limit: number; windowSeconds: number };
  /** The claimant page's limit per client address (docs/adr/0079). */
  claimantRateLimit: { limit: number; windowSeconds: number };
  /** The claimant page's body limit: a claim is a few hundred bytes. */
  claimantBodyLimitBytes: number;
  /** `WEBHOOK_LISTEN_MAX_SECONDS`, in ms: the longest a `webhook/listen` stream stays open (docs/adr/0128). */
  webhookListenMaxMs: number;
  dataDir: string;
  /** The developer console (docs/console/api.md, ADR 0080). */
  console: ConsoleConfig;
  /** Provider webhooks: which providers are taken in and with what secrets (docs/providers.md). */
  providerWebhooks: ProviderWebhooksConfig;
}

export interface ConsoleConfig {
  /** `CONSOLE_DIST_DIR`: the built front-end served at `/console/`; default `apps/console/dist` of the repository. */
  distDir: string;
  /** `CONSOLE_URL`: the console's public base, ending in `/`, as invite links name it. */
  url: string;
  /** The origin of `url`: a state-changing console request sent with another `Origin` (and another host) is refused. */
  origin: string;
}

/** How long a connection may take to send a request, how long it may idle, and how many a client may hold. */
export interface HttpLimits {
  /** `HTTP_HEADERS_TIMEOUT_MS`: the request line and headers must arrive within this time of the connection opening (or of the previous answer). */
  headersTimeoutMs: number;
  /** `HTTP_REQUEST_TIMEOUT_MS`: the whole request, body included, must arrive within this time. */
  requestTimeoutMs: number;
  /** `HTTP_KEEP_ALIVE_TIMEOUT_MS`: an idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** `HTTP_MAX_CONNECTIONS`: open connections on each server, all clients together. */
  maxConnections: number;
  /** `HTTP_MAX_CONNECTIONS_PER_CLIENT`: open connections from one client address (trusted proxies excepted). */
  maxConnectionsPerClient: number;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const production = env.NODE_ENV === 'production';
  const dataDir = env.DATA_DIR || V.DATA_DIR.default;
  let adminToken = env.ADMIN_TOKEN;
  let adminTokenFile: string | undefined;
  if (!adminToken) {
    if (production) throw new ConfigError('ADMIN_TOKEN is required when NODE_ENV=production');
    ({ token: adminToken, file: adminTokenFile } = developmentAdminToken(dataDir));
  } else {
    checkAdminToken('ADMIN_TOKEN', adminToken);
  }
  const previousAdminToken = env.ADMIN_TOKEN_PREVIOUS || undefined;
  if (previousAdminToken !== undefined) checkAdminToken('ADMIN_TOKEN_PREVIOUS', previousAdminToken);
  const tlsCert = env.TLS_CERT;
  const tlsKey = env.TLS_KEY;
  if (Boolean(tlsCert) !== Boolean(tlsKey)) throw new ConfigError('TLS_CERT and TLS_KEY must be set together');
  return {
    production,
    port: envPort(env, 'PORT', V.PORT.default),
    host: env.HOST || V.HOST.default,
    adminPort: envPort(env, 'ADMIN_PORT', V.ADMIN_PORT.default),
    adminHost: env.ADMIN_HOST || V.ADMIN_HOST.default,
    adminToken,
    previousAdminToken,
    adminTokenFile,
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
    tls: tlsCert && tlsKey ? { cert: readFileSync(tlsCert, 'utf8'), key: readFileSync(tlsKey, 'utf8') } : undefined,
    bodyLimitBytes: envPositiveInt(env, 'BODY_LIMIT_BYTES', V.BODY_LIMIT_BYTES.default),
    http: httpLimits(env),
    rateLimit: {
      limit: envPositiveInt(env, 'RATE_LIMIT_REQUESTS', V.RATE_LIMIT_REQUESTS.default),
      windowSeconds: envPositiveInt(env, 'RATE_LIMIT_WINDOW_SECONDS', V.RATE_LIMIT_WINDOW_SECONDS.default),
    },
    claimantRateLimit: {
      limit: envPositiveInt(env, 'CLAIMANT_RATE_LIMIT_REQUESTS', V.CLAIMANT_RATE_LIMIT_REQUESTS.default),
      windowSeconds: envPositiveInt(
        env,
        'CLAIMANT_RATE_LIMIT_WINDOW_SECONDS',
        V.CLAIMANT_RATE_LIMIT_WINDOW_SECONDS.default,
      ),
    },
    claimantBodyLimitBytes: envPositiveInt(env, 'CLAIMANT_BODY_LIMIT_BYTES', V.CLAIMANT_BODY_LIMIT_BYTES.default),
    webhookListenMaxMs:
      envIntBetween(env, 'WEBHOOK_LISTEN_MAX_SECONDS', V.WEBHOOK_LISTEN_MAX_SECONDS.default, 1, 86_400) * 1000,
    dataDir,
    console: consoleConfig(env, envPort(env, 'PORT', V.PORT.default), production),
    providerWebhooks: loadProviderWebhooksConfig(env, production),
  };
}

function consoleConfig(env: NodeJS.ProcessEnv, port: number, production: boolean): ConsoleConfig {
  const distDir = resolve(env.CONSOLE_DIST_DIR || join(repositoryRoot(), 'apps', 'console', 'dist'));
  // Invitation and password-reset e-mails carry links built from it: in a deployment the local default would send
  // people to 127.0.0.1, their own machine, so there it must be said.
  if (production && !env.CONSOLE_URL?.trim())
    throw new ConfigError(
      'CONSOLE_URL is required when NODE_ENV=production: invitation and password-reset e-mails link to it (the address people open the console at, e.g. https://api.example.com/console/)',
    );
  const raw = env.CONSOLE_URL?.trim() || `http://127.0.0.1:${port}/console/`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`CONSOLE_URL: "${raw}" is not a URL (e.g. https://console.example.com/console/)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError('CONSOLE_URL must be an http or https URL');
  if (url.search || url.hash) throw new ConfigError('CONSOLE_URL must not have a query or a fragment');
  const href = url.href.endsWith('/') ? url.href : `${url.href}/`;
  return { distDir, url: href, origin: url.origin };
}

/** The directory holding nx.json, above this file (the source tree or the built one). */
function repositoryRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export const ADMIN_TOKEN_MIN_LENGTH = 16;
export const ADMIN_TOKEN_MIN_BITS = 64;

/**
 * An operator token must be hard to guess: at least 16 visible ASCII characters (no spaces or control characters,
 * which are paste mistakes and do not survive every HTTP client) and an estimated entropy of at least 64 bits,
 * counted as length x log2(distinct characters). That refuses repeated and patterned tokens (sixteen spaces,
 * `aaaaaaaaaaaaaaaa`, `passwordpassword`) and lets any random token of 22 or more base64 characters through.
 */
function checkAdminToken(name: string, token: string): void {
  const advice = 'e.g. `openssl rand -base64 32`';
  if (!/^[\x21-\x7e]*$/.test(token))
    throw new ConfigError(
      `${name} must be visible ASCII characters only (no spaces or control characters); generate one with ${advice}`,
    );
  if (token.length < ADMIN_TOKEN_MIN_LENGTH)
    throw new ConfigError(`${name} must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters; generate one with ${advice}`);
  const bits = estimatedBits(token);
  if (bits < ADMIN_TOKEN_MIN_BITS) {
    throw new ConfigError(
      `${name} is too easy to guess (about ${Math.floor(bits)} bits; at least ${ADMIN_TOKEN_MIN_BITS} needed): use random characters, ${advice}`,
    );
  }
}

function estimatedBits(token: string): number {
  return token.length * Math.log2(new Set(token).size);
}

function httpLimits(env: NodeJS.ProcessEnv): HttpLimits {
  const limits: HttpLimits = {
    headersTimeoutMs: envPositiveInt(env, 'HTTP_HEADERS_TIMEOUT_MS', V.HTTP_HEADERS_TIMEOUT_MS.default),
    requestTimeoutMs: envPositiveInt(env, 'HTTP_REQUEST_TIMEOUT_MS', V.HTTP_REQUEST_TIMEOUT_MS.default),
    keepAliveTimeoutMs: envPositiveInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', V.HTTP_KEEP_ALIVE_TIMEOUT_MS.default),
    maxConnections: envPositiveInt(env, 'HTTP_MAX_CONNECTIONS', V.HTTP_MAX_CONNECTIONS.default),
    maxConnectionsPerClient: envPositiveInt(
      env,
      'HTTP_MAX_CONNECTIONS_PER_CLIENT',
      V.HTTP_MAX_CONNECTIONS_PER_CLIENT.default,
    ),
  };
  // Node refuses to start a server whose headers time-out is longer than its request time-out.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  if (limits.maxConnectionsPerClient > limits.maxConnections)
    throw new ConfigError('HTTP_MAX_CONNECTIONS_PER_CLIENT must not be larger than HTTP_MAX_CONNECTIONS');
  return limits;
}

/** The widest range TRUSTED_PROXIES may name: a cluster's per-node pod range fits, a whole private block does not. */
export const WIDEST_TRUSTED_RANGE = { ipv4: 16, ipv6: 64 };

/**
 * A trusted proxy can claim any client address, which IP allowlists and the HTTPS rule rely on: trust only the
 * ingress. A range wider than a /16 (IPv4) or /64 (IPv6), such as the 10.0.0.0/8 every pod and node of a cluster
 * connects from, is refused, and so is a range with host bits set, whose prefix trusts more than it says.
 */
function trustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const ok = entry.includes('/') ? safe(() => ipaddr.parseCIDR(entry)) : ipaddr.isValid(entry);
    if (!ok) throw new ConfigError(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const [problem] = addressRangeProblems([entry]);
    if (problem) throw new ConfigError(`TRUSTED_PROXIES: ${problem}`);
    if (entry.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(entry);
      const widest = address.kind() === 'ipv4' ? WIDEST_TRUSTED_RANGE.ipv4 : WIDEST_TRUSTED_RANGE.ipv6;
      if (bits < widest) {
        throw new ConfigError(
          `TRUSTED_PROXIES: ${entry} trusts far more than an ingress (at most a /${widest}); name the addresses your ingress or load balancer connects from`,
        );
      }
    }
  }
  return entries;
}

function safe(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

/**
 * Outside production an operator token is made once and kept in DATA_DIR/admin-token (mode 0600), so
 * `npm start` works with no setup and the operator CLI finds the same token. It is never logged.
 */
function developmentAdminToken(dataDir: string): { token: string; file: string } {
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), file };
  mkdirSync(dataDir, { recursive: true });
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, file };
}
