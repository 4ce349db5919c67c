import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { applyMigrations, assertAppName, databaseUrlVariable } from '@switchboard/persistence';
import { Client } from 'pg';
import { describeFailure } from './describe-failure.ts';
import { redact, testDatabaseServerUrl } from './services.ts';

/** Every database tests create starts with this; nothing else is ever dropped by these helpers. */
export const TEST_DATABASE_PREFIX = 'sb_test_';

const repoRoot = path.resolve(__dirname, '../../..');

export interface TestDatabase {
  /** `sb_test_<app>_<time>_<random>`. */
  readonly name: string;
  /** Connection URL of the new database (set it as `<APP>_DATABASE_URL`). */
  readonly url: string;
  /** Drops the database (terminating its connections). Idempotent. */
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /** Defaults to `apps/<app>/prisma/migrations`. */
  migrationsDir?: string;
  /** Server to create it on; defaults to `TEST_DATABASE_URL` or postgres://postgres@127.0.0.1:5432/postgres. */
  serverUrl?: string;
  /** `false` leaves the database empty (for tests of migrating itself). Default `true`. */
  migrate?: boolean;
}

/** The guard: throws unless `name` is one of ours (`sb_test_…`, lower case, at most 63 bytes). */
export function assertTestDatabaseName(name: string): void {
  if (!/^sb_test_[a-z0-9_]+$/.test(name) || name.length > 63) {
    throw new Error(`refusing to touch database "${name}": test databases are named ${TEST_DATABASE_PREFIX}<app>_<id>`);
  }
}

/** A fresh, uniquely named PostgreSQL database with the app's migrations applied. */
export async function createTestDatabase(
  appName: string,
  options: CreateTestDatabaseOptions = {},
): Promise<TestDatabase> {
  assertAppName(appName);
  const serverUrl = options.serverUrl ?? testDatabaseServerUrl();
  const migrationsDir = options.migrationsDir ?? path.join(repoRoot, 'apps', appName, 'prisma', 'migrations');
  const name = `${TEST_DATABASE_PREFIX}${appName.replace(/-/g, '_')}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  assertTestDatabaseName(name);
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));

  const url = withDatabase(serverUrl, name);
  let dropped: Promise<void> | undefined;
  const database: TestDatabase = {
    name,
    url,
    drop: () => (dropped ??= dropTestDatabase(name, serverUrl)),
  };
  if (options.migrate === false) return database;
  try {
    await applyMigrations({ appName, migrationsDir, env: { [databaseUrlVariable(appName)]: url } });
  } catch (error) {
    await database.drop().catch(() => undefined);
    throw error;
  }
  return database;
}

/** Drops a test database by name, refusing any name that is not `sb_test_…`. */
export async function dropTestDatabase(name: string, serverUrl: string = testDatabaseServerUrl()): Promise<void> {
  assertTestDatabaseName(name);
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer(serverUrl: string, work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`cannot connect to the test PostgreSQL server ${redact(serverUrl)}: ${describeFailure(error)}`, {
      cause: error,
    });
  }
  try {
    await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
