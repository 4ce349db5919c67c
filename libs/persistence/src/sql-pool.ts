import { Pool } from 'pg';
import type { DatabaseDriver } from './driver-adapter.ts';

/**
 * Plain SQL for a hot path, beside the app's Prisma client: one statement, one round trip, no query planning in
 * JavaScript. Most code should use the Prisma client; this is for the few statements run on every request.
 */
export interface SqlPool {
  /**
   * Runs one parameterised statement and returns its rows. `name` makes it a prepared statement on PostgreSQL
   * (parsed and planned once per connection); use one name per distinct text.
   */
  query<Row>(statement: { name?: string; text: string; values: unknown[] }): Promise<Row[]>;
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
export interface RawQueryClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * A `pg` pool on the app's PostgreSQL database; with embedded PGlite (one connection, development), the same
 * statements go through the Prisma client, whose adapter serialises them with its transactions.
 */
export function createSqlPool(driver: DatabaseDriver, client: RawQueryClient, options: SqlPoolOptions): SqlPool {
  if (driver.location.kind !== 'postgres') {
    return {
      query: ({ text, values }) => client.$queryRawUnsafe(text, ...values),
      close: () => Promise.resolve(),
    };
  }
  const pool = new Pool({
    connectionString: driver.location.url,
    max: options.max,
    application_name: options.applicationName,
    ...(options.asynchronousCommit ? { options: '-c synchronous_commit=off' } : {}),
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  let closing: Promise<void> | undefined;
  return {
    async query<Row>({ name, text, values }: { name?: string; text: string; values: unknown[] }) {
      const result = await pool.query({ name, text, values });
      return result.rows as Row[];
    },
    close: () => (closing ??= pool.end()),
  };
}
