import { Pool, types } from 'pg';
import type { DatabaseDriver } from './driver-adapter.ts';
import { compileSql, sqlRows, type RawSqlClient, type SqlStatement } from './sql.ts';

/**
 * Plain SQL for a hot path, beside the app's Prisma client: one statement, one round trip, no query planning in
 * JavaScript. Most code should use the Prisma client; this is for the few statements run on every request.
 */
export interface SqlPool {
  /**
   * Runs one statement (Kysely over the app's generated tables, libs/persistence `sql.ts`) and returns its rows.
   * `name` makes it a prepared statement on PostgreSQL (parsed and planned once per connection); use one name per
   * distinct text. `bigint` columns come back as `bigint`, as through Prisma, so the generated row types hold for
   * both drivers.
   */
  rows<Row>(name: string, statement: SqlStatement<Row>): Promise<Row[]>;
  /** Idempotent. */
  close(): Promise<void>;
}

export interface SqlPoolOptions {
  /** Connections of this pool, beside Prisma's (PostgreSQL only). */
  max: number;
  /** `application_name`, so the connections are told apart in `pg_stat_activity`. */
  applicationName: string;
  /**
   * Commit without waiting for the WAL flush. Only for writes the app can afford to lose on a database crash
   * (the last fraction of a second of them); the statements still run in order and atomically.
   */
  asynchronousCommit?: boolean;
  /** Called with errors of idle connections (a restarted database), which must not crash the process. */
  onIdleError?: (error: Error) => void;
}

/** What the PGlite fallback needs of a Prisma client. */
export type RawQueryClient = Pick<RawSqlClient, '$queryRawUnsafe'>;

/**
 * A `pg` pool on the app's PostgreSQL database; with embedded PGlite (one connection, development), the same
 * statements go through the Prisma client, whose adapter serialises them with its transactions.
 */
export function createSqlPool(driver: DatabaseDriver, client: RawQueryClient, options: SqlPoolOptions): SqlPool {
  if (driver.location.kind !== 'postgres') {
    return {
      rows: <Row>(_name: string, statement: SqlStatement<Row>) => sqlRows(client, statement),
      close: () => Promise.resolve(),
    };
  }
  const pool = new Pool({
    connectionString: driver.location.url,
    max: options.max,
    application_name: options.applicationName,
    types: { getTypeParser: bigintAsBigInt },
    ...(options.asynchronousCommit ? { options: '-c synchronous_commit=off' } : {}),
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  let closing: Promise<void> | undefined;
  return {
    async rows<Row>(name: string, statement: SqlStatement<Row>) {
      const { sql, parameters } = compileSql(statement);
      const result = await pool.query({ name, text: sql, values: parameters as unknown[] });
      return result.rows as Row[];
    },
    close: () => (closing ??= pool.end()),
  };
}

const INT8_OID = 20;

/** `pg`'s parsers, but `bigint` (int8) as a JavaScript `bigint`, as Prisma's raw query returns it. */
const bigintAsBigInt = ((oid: number, format?: 'text' | 'binary') =>
  oid === INT8_OID && format !== 'binary'
    ? (value: string) => BigInt(value)
    : types.getTypeParser(oid, format ?? 'text')) as typeof types.getTypeParser;
