import { createHash } from 'node:crypto';
import { Pool, types } from 'pg';
import type { DatabaseDriver } from './driver-adapter.ts';
import { compileSql, sqlRows, type RawSqlClient, type SqlStatement } from './sql.ts';
import { parseTimestamptz, TIMESTAMPTZ_OID } from './timestamptz.ts';
import type { TransactionalClient } from './transactions.ts';

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
  /**
   * Runs `work` in one transaction on one of the pool's connections: committed when it resolves, rolled back when
   * it throws. `tx` takes the same `sqlRows`/`sqlExecute` statements as a Prisma transaction client, without
   * Prisma's transaction machinery; each statement may run `timeoutMs` (default 30 s, as Prisma's transactions).
   */
  transaction<R>(work: (tx: SqlTransaction) => Promise<R>, options?: { timeoutMs?: number }): Promise<R>;
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
  /**
   * The longest any statement of the pool may run (PostgreSQL's `statement_timeout`, lock waits included); none by
   * default. `transaction` sets its own bound on its statements either way.
   */
  statementTimeoutMs?: number;
  /**
   * Where an idle connection's failure (a restarted database) is reported: a warning naming the pool by its
   * `applicationName`. The pool replaces the connection; the failure must not crash the process, logger or not.
   */
  logger?: { warn(fields: object, message: string): void };
}

/** A transaction of `SqlPool.transaction`: what `sqlRows` and `sqlExecute` need. */
export type SqlTransaction = RawSqlClient;

/** What the PGlite fallback needs of a Prisma client. */
export type RawQueryClient = Pick<RawSqlClient, '$queryRawUnsafe'> & TransactionalClient<SqlTransaction>;

/** Prisma's default for an interactive transaction's time, kept for one statement of `transaction`. */
const TRANSACTION_TIMEOUT_MS = 30_000;

/**
 * A `pg` pool on the app's PostgreSQL database; with embedded PGlite (one connection, development), the same
 * statements go through the Prisma client, whose adapter serialises them with its transactions.
 */
export function createSqlPool(driver: DatabaseDriver, client: RawQueryClient, options: SqlPoolOptions): SqlPool {
  if (driver.location.kind !== 'postgres') {
    return {
      rows: <Row>(_name: string, statement: SqlStatement<Row>) => sqlRows(client, statement),
      transaction: (work, { timeoutMs = TRANSACTION_TIMEOUT_MS } = {}) =>
        client.$transaction(work, { timeout: timeoutMs }),
      close: () => Promise.resolve(),
    };
  }
  const pool = new Pool({
    connectionString: driver.location.url,
    max: options.max,
    application_name: options.applicationName,
    types: { getTypeParser: typeParsers },
    ...sessionOptions(options),
  });
  pool.on('error', (error) =>
    options.logger?.warn(
      { err: error, pool: options.applicationName },
      'database connection failed while idle; it will be replaced',
    ),
  );
  const prepared = new PreparedNames();
  let closing: Promise<void> | undefined;
  return {
    async rows<Row>(name: string, statement: SqlStatement<Row>) {
      const { sql, parameters } = compileSql(statement);
      const result = await pool.query({ name, text: sql, values: parameters as unknown[] });
      return result.rows as Row[];
    },
    async transaction(work, { timeoutMs = TRANSACTION_TIMEOUT_MS } = {}) {
      const connection = await pool.connect();
      let broken: Error | undefined;
      try {
        // One round trip opens the transaction with its bound (a simple query may hold two statements).
        await connection.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
        const query = (text: string, values: unknown[]) =>
          connection.query({ name: prepared.nameOf(text), text, values });
        const tx: SqlTransaction = {
          $queryRawUnsafe: async <T>(text: string, ...values: unknown[]) => (await query(text, values)).rows as T,
          $executeRawUnsafe: async (text: string, ...values: unknown[]) => (await query(text, values)).rowCount ?? 0,
        };
        const result = await work(tx);
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        // A connection whose rollback failed is in an unknown state: it is closed, not reused.
        await connection.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        connection.release(broken);
      }
    },
    close: () => (closing ??= pool.end()),
  };
}

/** The connections' session settings, as `pg`'s `options` (PostgreSQL's `-c name=value` start-up options). */
function sessionOptions({ asynchronousCommit, statementTimeoutMs }: SqlPoolOptions): { options?: string } {
  const settings = [
    ...(asynchronousCommit ? ['-c synchronous_commit=off'] : []),
    ...(statementTimeoutMs !== undefined
      ? [`-c statement_timeout=${Math.max(1, Math.floor(statementTimeoutMs))}`]
      : []),
  ];
  return settings.length > 0 ? { options: settings.join(' ') } : {};
}

const INT8_OID = 20;

const parseBigint = (value: string) => BigInt(value);

/**
 * `pg`'s parsers, but `bigint` (int8) as a JavaScript `bigint`, as Prisma's raw query returns it, and timestamptz
 * read without postgres-date's regular expressions where it can (`timestamptz.ts`: the same `Date`).
 */
const typeParsers = ((oid: number, format?: 'text' | 'binary') => {
  if (format === 'binary') return types.getTypeParser(oid, format);
  if (oid === INT8_OID) return parseBigint;
  if (oid === TIMESTAMPTZ_OID) return parseTimestamptz;
  return types.getTypeParser(oid, format ?? 'text');
}) as typeof types.getTypeParser;

/**
 * Names for the statements of `transaction`, so PostgreSQL parses and plans each text once per connection: the
 * texts come from the code's statement builders, a small set. Past MAX_PREPARED texts (statements whose text
 * varies, such as IN lists of varying length) a text runs unnamed, so neither side keeps growing.
 */
class PreparedNames {
  private static readonly MAX_PREPARED = 200;
  private readonly names = new Map<string, string>();

  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= PreparedNames.MAX_PREPARED) return known;
    const name = `sb_tx_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    this.names.set(text, name);
    return name;
  }
}
