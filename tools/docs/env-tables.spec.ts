import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messagingConfigFromEnv, type EnvVariable } from '@switchboard/service-runtime';
import { loadCallsMediaConfig } from '../../apps/calls-media/src/config/calls-media.config';
import { callsMediaVariables } from '../../apps/calls-media/src/config/variables';
import { loadGatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { gatewayVariables } from '../../apps/gateway/src/config/variables';
import { loadLostfoundConfig } from '../../apps/lostfound/src/config/lostfound.config';
import { lostfoundVariables } from '../../apps/lostfound/src/config/variables';
import { loadNumbersBillingConfig } from '../../apps/numbers-billing/src/config/numbers-billing.config';
import { numbersBillingVariables } from '../../apps/numbers-billing/src/config/variables';
import { webhookDispatcherVariables } from '../../apps/webhook-dispatcher/src/config/variables';
import { loadWebhookDispatcherConfig } from '../../apps/webhook-dispatcher/src/config/webhook-dispatcher.config';

const root = join(__dirname, '..', '..');

describe("the services' variable tables (apps/<app>/README.md)", () => {
  it('are the ones generated from each src/config/variables.ts (node tools/docs/env-tables.mjs --write)', () => {
    const check = spawnSync(process.execPath, [join(root, 'tools/docs/env-tables.mjs')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    // On failure this names each stale README and the command that rewrites it.
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 90_000);
});

describe('the variable declarations', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'env-tables-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Every provider configured, with valid values, so each config module takes every branch that reads a variable. */
  const everything = (): NodeJS.ProcessEnv => ({
    ADMIN_TOKEN: 'Zq8vN2xT5kLw9pRb3mYc7hJd',
    PUBLIC_BASE_URL: 'https://api.example.com',
    STRIPE_SECRET_KEY: 'sk_test_abc123',
    STRIPE_API_BASE_URL: 'http://127.0.0.1:12111',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: 'token',
    TWILIO_API_BASE_URL: 'http://127.0.0.1:12112',
    TWILIO_SMS_FROM: '+14155550100',
    RETELL_API_KEY: 'key_abc',
    RETELL_API_BASE_URL: 'http://127.0.0.1:12113',
    LOSTFOUND_SMS_PROVIDER: 'twilio',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_BUCKET: 'recordings',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
    DATA_DIR: dataDir,
  });

  /** The names `load` reads from an environment of `values`. */
  function readBy(load: (env: NodeJS.ProcessEnv) => unknown, values: NodeJS.ProcessEnv): Set<string> {
    const read = new Set<string>();
    const env = new Proxy(values, {
      get(target, key) {
        if (typeof key === 'string') read.add(key);
        return target[key as string];
      },
    });
    load(env);
    return read;
  }

  it.each<[string, (env: NodeJS.ProcessEnv) => unknown, readonly EnvVariable[]]>([
    ['gateway', loadGatewayConfig, gatewayVariables],
    ['numbers-billing', loadNumbersBillingConfig, numbersBillingVariables],
    ['calls-media', loadCallsMediaConfig, callsMediaVariables],
    ['lostfound', loadLostfoundConfig, lostfoundVariables],
    ['webhook-dispatcher', loadWebhookDispatcherConfig, webhookDispatcherVariables],
  ])('of %s name every variable its config module reads, and nothing it does not', (_app, load, variables) => {
    const declared = new Set(variables.map((variable) => variable.name));
    const read = new Set([
      ...readBy(load, { DATA_DIR: dataDir }),
      ...readBy(load, everything()),
      ...readBy(messagingConfigFromEnv, {}),
    ]);
    expect([...read].filter((name) => !declared.has(name))).toEqual([]);
    // Read by the libraries at start, not (or only in some cases) by the config module: the database and DATA_DIR, logs,
    // traces, health, Node's own CAs, NODE_ENV.
    const elsewhere = /_DATABASE_URL$|^DATA_DIR$|^LOG_LEVEL$|^OTEL_|^HEALTH_PORT$|^NODE_EXTRA_CA_CERTS$|^NODE_ENV$/;
    expect([...declared].filter((name) => !read.has(name) && !elsewhere.test(name))).toEqual([]);
  });
});
