import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type * as PGliteModule from '@electric-sql/pglite';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type * as PGliteAdapterModule from 'pglite-prisma-adapter';
import { databaseLocationFor, describeLocation, type DatabaseLocation, type Env } from './database-config.ts';
import { describeError, PersistenceError } from './errors.ts';

/**
 * An app's database as Prisma sees it: the driver adapter factory to hand to `new PrismaClient({ adapter })`
 * or to the schema engine, and `close()` for what the adapter does not close itself (the embedded PGlite
 * instance; Prisma's `$disconnect()` ends the PostgreSQL pool).
 */
export interface DatabaseDriver {
  readonly appName: string;
  readonly location: DatabaseLocation;
  /** "PostgreSQL postgres://…" (password hidden) or "PGlite /abs/dir", for logs. */
  readonly description: string;
  readonly adapter: SqlMigrationAwareDriverAdapterFactory;
  /** The embedded database, in PGlite mode only. */
  readonly pglite?: PGlite;
  /** Idempotent. Call after `$disconnect()`. */
  close(): Promise<void>;
}

/**
 * PostgreSQL start-up options of every connection. `TimeZone=UTC`: Prisma's pg adapter reads a timestamptz's text as
 * UTC whatever offset it carries (its `normalize_timestamptz` replaces the offset with +00:00) and sends a `Date`
 * parameter as UTC text without an offset; both are right only in a session whose time zone is UTC, so each connection
 * sets it, whatever the server's or the database's default (`kysely.int-spec.ts` runs on a New York database).
 */
export const SESSION_OPTIONS = '-c TimeZone=UTC';

/**
 * PGlite and its Prisma adapter, loaded when first needed: a service on PostgreSQL never uses them, and loading
 * them costs every start 33 ms and 7 MiB (ADR 0098).
 */
export function embeddedDatabase(): {
  PGlite: typeof PGliteModule.PGlite;
  PrismaPGlite: typeof PGliteAdapterModule.PrismaPGlite;
} {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily and synchronously (ADR 0098)
  const { PGlite } = require('@electric-sql/pglite') as typeof PGliteModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const { PrismaPGlite } = require('pglite-prisma-adapter') as typeof PGliteAdapterModule;
  return { PGlite, PrismaPGlite };
}

/**
 * `PrismaPg` over `<APP>_DATABASE_URL` when set, else `PrismaPGlite` over a file-backed PGlite in
 * `DATA_DIR/<app>` (created if missing, mode 0700). One process must not open the same PGlite directory twice:
 * share the returned driver (see `createPrismaClient`, which migrates and connects through one).
 */
export async function createDriverAdapter(appName: string, env: Env = process.env): Promise<DatabaseDriver> {
  const location = databaseLocationFor(appName, env);
  const description = describeLocation(location);
  if (location.kind === 'postgres') {
    return {
      appName,
      location,
      description,
      adapter: new PrismaPg(
        { connectionString: location.url, options: SESSION_OPTIONS },
        // An unnamed statement is what the adapter runs without a generator; its type asks for a string.
        { statementNameGenerator: preparedStatementNames() as (query: { sql: string }) => string },
      ),
      close: () => Promise.resolve(),
    };
  }
  const pglite = await openPGlite(appName, location.directory);
  return {
    appName,
    location,
    description,
    adapter: new (embeddedDatabase().PrismaPGlite)(pglite),
    pglite,
    close: () => closePGlite(pglite),
  };
}

export async function openPGlite(appName: string, directory: string): Promise<PGlite> {
  try {
    // The database's files are this user's alone: PGlite makes them readable by anyone (0755 folders, 0666 files),
    // so the directory is 0700, and tightened to it when an earlier version left it looser.
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    if (fs.statSync(directory).mode & 0o077) fs.chmodSync(directory, 0o700);
    return await embeddedDatabase().PGlite.create(directory);
  } catch (error) {
    throw new PersistenceError(appName, `cannot open the PGlite database in ${directory}: ${describeError(error)}`, {
      cause: error,
    });
  }
}

export async function closePGlite(pglite: PGlite): Promise<void> {
  if (!pglite.closed) await pglite.close();
}

/**
 * Names for the statements the app runs on PostgreSQL, so the server parses and plans each text once per connection
 * instead of on every execution (`@prisma/adapter-pg`'s `statementNameGenerator`; `pg` keeps the names it prepared
 * on each connection). The texts come from Prisma's query plans and the app's Kysely builders: a small set. Past
 * `limit` texts (statements whose text varies, such as IN lists of varying length) a text runs unnamed, so neither
 * side keeps growing. A prepared statement fails with "cached plan must not change result type" when its result
 * columns change under it, so statements name their columns rather than `*` (an expand migration adds columns while
 * older replicas still run theirs: docs/operations.md; tools/lint/eslint-rules/no-all-columns.mjs).
 */
export function preparedStatementNames(limit = 200): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined || names.size >= limit) return known;
    const name = `sb_${createHash('sha1').update(sql).digest('base64url')}`;
    names.set(sql, name);
    return name;
  };
}
