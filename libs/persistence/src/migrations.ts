import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaContainer } from '@prisma/schema-engine-wasm';
import { Client } from 'pg';
import { databaseLocationFor, describeLocation, type Env } from './database-config.ts';
import { closePGlite, embeddedDatabase, openPGlite, type DatabaseDriver } from './driver-adapter.ts';
import { wholeScriptAdapter } from './whole-script-adapter.ts';
import { describeError, PersistenceError } from './errors.ts';
import { assertPostgresLock, readMigrations, writeMigration } from './migration-files.ts';
import { withSchemaEngine } from './schema-engine.ts';

const NO_FILTERS = { externalTables: [], externalEnums: [] };

/**
 * Session-level advisory lock held around the whole apply on PostgreSQL, so that concurrent starts of one
 * service (or two services sharing a database) apply migrations one after the other. The engine also takes
 * Prisma's own lock (72707369) inside; this outer one is distinct so the two cannot deadlock.
 */
export const MIGRATION_ADVISORY_LOCK = 1_396_854_087; // 'SBMG'
const DEFAULT_LOCK_TIMEOUT_MS = 120_000;

export interface ApplyMigrationsOptions {
  appName: string;
  /** `apps/<app>/prisma/migrations`. */
  migrationsDir: string;
  /** Defaults to `process.env`; ignored when `driver` is given. */
  env?: Env;
  /** An already open driver for the app: its PGlite instance is reused (never open one directory twice). */
  driver?: DatabaseDriver;
  /** How long to wait for another process's apply on PostgreSQL (default 120 s). */
  lockTimeoutMs?: number;
  /** Receives the engine's JSON log lines. */
  onLog?: (line: string) => void;
}

export interface ApplyMigrationsResult {
  /** Migrations applied by this call, in order; empty when the database was up to date. */
  appliedMigrationNames: string[];
  /** "PostgreSQL postgres://…" or "PGlite /abs/dir". */
  database: string;
}

/** Prisma's record of one migration in `_prisma_migrations`, as far as "is anything left to do" needs it. */
export interface RecordedMigration {
  readonly migration_name: string;
  readonly checksum: string;
  readonly finished: boolean;
  readonly rolled_back: boolean;
}

const RECORDED_MIGRATIONS = `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished,
  rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations`;

/**
 * Whether the database records exactly the committed migrations as applied, each unchanged since (Prisma's
 * checksum: the SHA-256 of its migration.sql), with none failed: then the schema engine has nothing to do, and a
 * service's start need not load it (5 MB of WebAssembly: 145 ms of CPU, and 13 MiB it keeps, in every service,
 * ADR 0098). Anything else (a new, edited, failed or unknown migration, no table yet) is the engine's to decide,
 * as `prisma migrate deploy` does.
 */
export function nothingToApply(migrations: MigrationList, recorded: readonly RecordedMigration[]): boolean {
  const committed = new Map<string, string>();
  for (const directory of migrations.migrationDirectories) {
    const content = directory.migrationFile.content;
    if (content.tag !== 'ok') return false;
    committed.set(directory.path, createHash('sha256').update(content.value).digest('hex'));
  }
  // A migration rolled back (`migrate resolve --rolled-back`) is history; one neither finished nor rolled back failed.
  const current = recorded.filter((row) => !row.rolled_back);
  return (
    current.length === committed.size &&
    current.every((row) => row.finished && committed.get(row.migration_name) === row.checksum)
  );
}

/** `_prisma_migrations` read by `query`, or undefined where it cannot be (no table yet: the engine makes it). */
async function recordedMigrations(
  query: (sql: string) => Promise<readonly RecordedMigration[]>,
): Promise<readonly RecordedMigration[] | undefined> {
  try {
    return await query(RECORDED_MIGRATIONS);
  } catch {
    return undefined;
  }
}

/**
 * Applies the app's committed migrations that the database lacks (`prisma migrate deploy`, with the Wasm
 * engine), recording them in `_prisma_migrations`. A failed migration is recorded as failed there and
 * throws; later calls refuse to go on until it is resolved, as with Prisma's CLI. A database that already has
 * them all is left to itself without starting the engine (`nothingToApply`).
 */
export async function applyMigrations(options: ApplyMigrationsOptions): Promise<ApplyMigrationsResult> {
  const { appName, driver, onLog } = options;
  const location = driver?.location ?? databaseLocationFor(appName, options.env ?? process.env);
  const database = describeLocation(location);
  const migrations = readMigrations(options.migrationsDir);
  if (migrations.lockfile.content === null && migrations.migrationDirectories.length === 0) {
    throw new PersistenceError(
      appName,
      `no migrations in ${migrations.baseDir} (create them with: npm run migrate:create -- ${appName} <name>)`,
    );
  }
  assertPostgresLock(appName, migrations);
  const upToDate = async (query: (sql: string) => Promise<readonly RecordedMigration[]>): Promise<boolean> => {
    const recorded = await recordedMigrations(query);
    return recorded !== undefined && nothingToApply(migrations, recorded);
  };
  const apply = async (adapter: SqlMigrationAwareDriverAdapterFactory): Promise<ApplyMigrationsResult> => {
    const output = await withSchemaEngine(
      { appName, adapter: wholeScriptAdapter(adapter), onLog },
      `applying migrations to ${database}`,
      (engine) => engine.applyMigrations({ migrationsList: migrations, filters: NO_FILTERS }),
    );
    return { appliedMigrationNames: output.appliedMigrationNames, database };
  };

  if (location.kind === 'postgres') {
    return withAdvisoryLock(
      appName,
      location.url,
      database,
      options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      async (client) => {
        if (await upToDate(async (sql) => (await client.query<RecordedMigration>(sql)).rows)) {
          return { appliedMigrationNames: [], database };
        }
        // One connection: the engine's own lock and unlock must land on the same session.
        return apply(new PrismaPg({ connectionString: location.url, max: 1, connectionTimeoutMillis: 10_000 }));
      },
    );
  }
  const onPGlite = async (pglite: PGlite): Promise<ApplyMigrationsResult> => {
    if (await upToDate(async (sql) => (await pglite.query<RecordedMigration>(sql)).rows)) {
      return { appliedMigrationNames: [], database };
    }
    return apply(new (embeddedDatabase().PrismaPGlite)(pglite));
  };
  if (driver?.pglite) return onPGlite(driver.pglite);
  const pglite = await openPGlite(appName, location.directory);
  try {
    return await onPGlite(pglite);
  } finally {
    await closePGlite(pglite);
  }
}

async function withAdvisoryLock<R>(
  appName: string,
  url: string,
  database: string,
  timeoutMs: number,
  work: (client: Client) => Promise<R>,
): Promise<R> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    application_name: `${appName} migrations`,
  });
  client.on('error', () => undefined); // a dropped connection surfaces through the pending query
  try {
    await client.connect();
  } catch (error) {
    throw new PersistenceError(appName, `cannot connect to ${database}: ${describeError(error)}`, { cause: error });
  }
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_ADVISORY_LOCK]);
  } catch (error) {
    await client.end().catch(() => undefined);
    const waited = (error as { code?: string }).code === '55P03';
    throw new PersistenceError(
      appName,
      waited
        ? `another process has held the migration lock on ${database} for over ${timeoutMs} ms`
        : `cannot take the migration lock on ${database}: ${describeError(error)}`,
      { cause: error },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_ADVISORY_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

export interface SchemaMigrationsOptions {
  appName: string;
  /** `apps/<app>/prisma/schema.prisma` (or a folder of `.prisma` files). */
  schemaPath: string;
  migrationsDir: string;
  onLog?: (line: string) => void;
}

/**
 * The SQL that takes a database built by the committed migrations to the schema, or `null` when they
 * already agree. Works offline: the migrations are replayed into an in-memory PGlite, never a live server.
 */
export async function diffSchemaFromMigrations(options: SchemaMigrationsOptions): Promise<string | null> {
  const { appName, onLog } = options;
  const files = readSchemaFiles(appName, options.schemaPath);
  const migrations = readMigrations(options.migrationsDir);
  assertPostgresLock(appName, migrations);
  const from =
    migrations.lockfile.content === null && migrations.migrationDirectories.length === 0
      ? ({ tag: 'empty' } as const)
      : ({ tag: 'migrations', ...migrations } as const);
  // The engine connects to its main database at start but diffs only on the shadow one; a single fresh
  // in-memory instance serves as both (each PGlite start costs seconds).
  const { PGlite, PrismaPGlite } = embeddedDatabase();
  const scratch = await PGlite.create();
  try {
    // PrismaPGlite's own connectToShadowDb() starts another PGlite that nothing ever closes (the process
    // then lingers ~10 s): point the shadow at the scratch instance instead.
    const base = new PrismaPGlite(scratch);
    const adapter = wholeScriptAdapter({
      provider: base.provider,
      adapterName: base.adapterName,
      connect: () => base.connect(),
      connectToShadowDb: () => base.connect(),
    });
    const result = await withSchemaEngine(
      { appName, adapter, onLog },
      `comparing ${options.schemaPath} with ${migrations.baseDir}`,
      (engine) =>
        engine.diff({ from, to: { tag: 'schemaDatamodel', files }, script: true, exitCode: true, filters: NO_FILTERS }),
    );
    const sql = result.stdout ?? '';
    if (result.exitCode === 0 || /^-- This is an empty migration\.\s*$/.test(sql.trim())) return null;
    return sql;
  } finally {
    await closePGlite(scratch);
  }
}

export interface CreatedMigration {
  /** `<timestamp>_<name>`. */
  migrationName: string;
  directory: string;
  sql: string;
}

/** Writes the next migration for the schema; `null` (and nothing written) when the schema has no changes. */
export async function createMigration(
  options: SchemaMigrationsOptions & { name: string; now?: Date },
): Promise<CreatedMigration | null> {
  const sql = await diffSchemaFromMigrations(options);
  if (sql === null) return null;
  const migrationName = writeMigration(options.migrationsDir, options.name, sql, options.now);
  return { migrationName, directory: path.join(path.resolve(options.migrationsDir), migrationName), sql };
}

export type MigrationCheck = { inSync: true } | { inSync: false; missingSql: string };

/** Drift check for CI: do the committed migrations build exactly the schema? */
export async function checkMigrations(options: SchemaMigrationsOptions): Promise<MigrationCheck> {
  const sql = await diffSchemaFromMigrations(options);
  return sql === null ? { inSync: true } : { inSync: false, missingSql: sql };
}

function readSchemaFiles(appName: string, schemaPath: string): SchemaContainer[] {
  const resolved = path.resolve(schemaPath);
  let paths: string[];
  try {
    paths = fs.statSync(resolved).isDirectory()
      ? fs
          .readdirSync(resolved, { recursive: true, encoding: 'utf8' })
          .filter((name) => name.endsWith('.prisma'))
          .sort()
          .map((name) => path.join(resolved, name))
      : [resolved];
  } catch (error) {
    throw new PersistenceError(appName, `cannot read the Prisma schema at ${resolved}: ${describeError(error)}`, {
      cause: error,
    });
  }
  if (paths.length === 0) throw new PersistenceError(appName, `no .prisma files in ${resolved}`);
  return paths.map((file) => ({ path: file, content: fs.readFileSync(file, 'utf8') }));
}
