import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createLogger } from '@switchboard/observability';
import { createTestDatabase, testNatsEnv, testNatsOptions, type TestDatabase } from '@switchboard/testing';
import type { Logger } from '@switchboard/observability';
import { createGateway, type GatewayRuntime } from '../../../apps/gateway/src/bootstrap';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export type ServiceApp = 'numbers-billing' | 'calls-media' | 'lostfound' | 'webhook-dispatcher';
type AppName = 'gateway' | ServiceApp;
type AppFactory = (env: NodeJS.ProcessEnv, logger: Logger) => Promise<INestApplicationContext>;

/** Each service's factory, loaded only when a test boots that service. */
const FACTORIES: Record<ServiceApp, () => Promise<AppFactory>> = {
  'numbers-billing': async () =>
    (await import('../../../apps/numbers-billing/src/bootstrap.ts')).createNumbersBillingApp,
  'calls-media': async () => (await import('../../../apps/calls-media/src/bootstrap.ts')).createCallsMediaApp,
  lostfound: async () => (await import('../../../apps/lostfound/src/bootstrap.ts')).createLostfoundApp,
  'webhook-dispatcher': async () =>
    (await import('../../../apps/webhook-dispatcher/src/bootstrap.ts')).createWebhookDispatcherApp,
};

export interface RunningSystem {
  publicUrl: string;
  adminUrl: string;
  adminToken: string;
  /** The NATS subject prefix of this system: its subjects and streams are its own. */
  prefix: string;
  /** What every service was started with, less each one's own NATS user (`testNatsEnv(app)` adds it). */
  env: NodeJS.ProcessEnv;
  gateway: GatewayRuntime;
  services: Partial<Record<ServiceApp, INestApplicationContext>>;
  stop(): Promise<void>;
}

export interface StartSystemOptions {
  /** Extra or overriding environment variables (e.g. RATE_LIMIT_REQUESTS, WEBHOOK_BACKOFF_BASE_MS). */
  env?: Record<string, string>;
  /** The services to boot besides the gateway (default: all four). */
  services?: ServiceApp[];
  /** The gateway's logger (default: silent unless E2E_LOG_LEVEL says otherwise), e.g. to read what it logs. */
  gatewayLogger?: Logger;
}

/**
 * Boots the whole system in this process, as `npm start` does in five: fresh PostgreSQL databases, a NATS
 * subject prefix of its own, the four services and the gateway on free ports. `stop()` removes all of it.
 */
export async function startSystem(options: StartSystemOptions = {}): Promise<RunningSystem> {
  const prefix = `e2e${randomBytes(5).toString('hex')}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'sb-e2e-'));
  const wanted = options.services ?? (Object.keys(FACTORIES) as ServiceApp[]);
  const databases: Partial<Record<AppName, TestDatabase>> = {};
  await Promise.all(
    ['gateway' as const, ...wanted].map(async (app) => (databases[app] = await createTestDatabase(app))),
  );
  const databaseUrls = Object.fromEntries(
    Object.entries(databases).map(([app, db]) => [`${app.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`, db.url]),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    NATS_SUBJECT_PREFIX: prefix,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    DATA_DIR: dataDir,
    ...databaseUrls,
    ...options.env,
  };
  const quiet = (name: string) => createLogger(name, process.env.E2E_LOG_LEVEL ?? 'silent');
  const started: INestApplicationContext[] = [];
  let gateway: GatewayRuntime | undefined;
  const cleanup = async (): Promise<void> => {
    await gateway?.close();
    await Promise.allSettled(started.map((app) => app.close()));
    await deleteStreams(prefix);
    await Promise.allSettled(Object.values(databases).map((db) => db.drop()));
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const services: Partial<Record<ServiceApp, INestApplicationContext>> = {};
    await Promise.all(
      wanted.map(async (name) => {
        // Each service as its own NATS user, as in production: a grant missing from BUS_GRANTS fails here.
        const app = await (await FACTORIES[name]())({ ...env, ...testNatsEnv(name) }, quiet(name));
        started.push(app);
        services[name] = app;
      }),
    );
    gateway = await createGateway({ ...env, ...testNatsEnv('gateway') }, { logger: options.gatewayLogger });
    const { publicUrl, adminUrl } = await gateway.listen({ port: 0, adminPort: 0 });
    return {
      publicUrl,
      adminUrl,
      adminToken: TEST_ADMIN_TOKEN,
      prefix,
      env,
      gateway,
      services,
      stop: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** Removes every JetStream stream of one prefix (its consumers go with it). */
export async function deleteStreams(prefix: string): Promise<void> {
  const nc = await connect(testNatsOptions());
  try {
    const jsm = await jetstreamManager(nc);
    const upper = `${prefix.toUpperCase().replace(/-/g, '_')}_`;
    for await (const stream of jsm.streams.list()) {
      if (stream.config.name.startsWith(upper)) await jsm.streams.delete(stream.config.name);
    }
  } finally {
    await nc.close();
  }
}
