import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createPrismaClient,
  createSqlPool,
  hasSqlState,
  sqlBuilder,
  sqlExecute,
  sqlRows,
  type PrismaClientClass,
  type RawSqlClient,
  type TransactionalClient,
} from '@switchboard/persistence';
import { createTestDatabase } from '@switchboard/testing';
import { sql, type ColumnType } from 'kysely';

jest.setTimeout(60_000);

const repoRoot = path.resolve(__dirname, '../../..');
const fixtures = path.resolve(__dirname, '../test-fixtures');
const migrationsDir = path.join(fixtures, 'migrations');

/** The fixture's tables as prisma-kysely would generate them (the fixture schema has no kysely generator). */
interface FixtureDb {
  widgets: { id: string; name: string; kind: string; created_at: ColumnType<Date, Date | undefined, Date> };
  parts: { id: bigint; label: string; widget_id: string };
}

type FixtureClient = RawSqlClient & TransactionalClient<RawSqlClient> & { $disconnect(): Promise<void> };
let PrismaClient: PrismaClientClass<FixtureClient>;

beforeAll(() => {
  const generate = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/prisma/build/index.js'),
      'generate',
      '--schema',
      path.join(fixtures, 'schema.prisma'),
    ],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
        CHECKPOINT_DISABLE: '1',
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
      },
    },
  );
  if (generate.status !== 0) throw new Error(`prisma generate failed:\n${generate.stdout}${generate.stderr}`);
  PrismaClient = require(path.join(fixtures, 'generated/prisma/client.ts')).PrismaClient;
});

const db = sqlBuilder<FixtureDb>();
const big = 9_007_199_254_740_993n; // past Number.MAX_SAFE_INTEGER: a string or a number would show

describe('Kysely statements on Prisma and on the SqlPool', () => {
  it.each(['postgres', 'pglite'] as const)(
    'return the same typed rows through both executors (%s), bigint as bigint',
    async (kind) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sql-'));
      const database = kind === 'postgres' ? await createTestDatabase('fixture', { migrationsDir }) : undefined;
      const env = database ? { FIXTURE_DATABASE_URL: database.url } : { DATA_DIR: dataDir };
      const handle = await createPrismaClient(PrismaClient, 'fixture', { env, migrationsDir });
      const pool = createSqlPool(handle.driver, handle.client, { max: 1, applicationName: 'sql-spec' });
      try {
        const inserted = await sqlExecute(
          handle.client,
          db.insertInto('widgets').values({ id: '00000000-0000-0000-0000-00000000000a', name: 'w', kind: 'small' }),
        );
        expect(inserted).toBe(1);
        const byName = db.selectFrom('widgets').select(['id', 'name']).where('name', '=', 'w');
        expect(await sqlRows(handle.client, byName)).toEqual([
          { id: '00000000-0000-0000-0000-00000000000a', name: 'w' },
        ]);
        expect(await pool.rows('sql_spec_widget', byName)).toEqual([
          { id: '00000000-0000-0000-0000-00000000000a', name: 'w' },
        ]);

        const bigint = sql<{ big: bigint }>`SELECT ${big.toString()}::bigint AS big`;
        expect(await sqlRows(handle.client, bigint)).toEqual([{ big }]);
        expect(await pool.rows('sql_spec_bigint', bigint)).toEqual([{ big }]);

        // A timestamptz: the same Date through both executors, and through the pool whatever its session's time zone
        // (timestamptz.ts; Prisma's adapter reads the text as UTC).
        const at = new Date('2026-11-27T09:02:34.213Z');
        const moment = (zone: string) =>
          sql<{ zone: string; at: Date }>`SELECT set_config('TimeZone', ${zone}, false) AS zone,
            '2026-11-27 09:02:34.213962+00'::timestamptz AS at`;
        expect(await sqlRows(handle.client, moment('UTC'))).toEqual([{ zone: 'UTC', at }]);
        const zones = kind === 'postgres' ? ['America/New_York', 'Asia/Kolkata', 'UTC'] : ['UTC'];
        for (const zone of zones) expect(await pool.rows('sql_spec_moment', moment(zone))).toEqual([{ zone, at }]);

        // A transaction on the pool: committed when its work resolves, nothing kept when it throws.
        const widget = (id: string) =>
          db.insertInto('widgets').values({ id, name: `tx-${id.slice(-1)}`, kind: 'small' });
        const committed = await pool.transaction(async (tx) => {
          await sqlExecute(tx, widget('00000000-0000-0000-0000-00000000000b'));
          return sqlRows(tx, bigint);
        });
        expect(committed).toEqual([{ big }]);
        await expect(
          pool.transaction(async (tx) => {
            await sqlExecute(tx, widget('00000000-0000-0000-0000-00000000000c'));
            throw new Error('work failed');
          }),
        ).rejects.toThrow('work failed');
        const txNamed = db.selectFrom('widgets').select('id').where('name', 'like', 'tx-%');
        expect(await sqlRows(handle.client, txNamed)).toEqual([{ id: '00000000-0000-0000-0000-00000000000b' }]);
        // The pool's connection is usable after the rollback.
        expect(await pool.rows('sql_spec_bigint', bigint)).toEqual([{ big }]);
        // A statement PostgreSQL refuses is told by its SQLSTATE, whichever executor and driver ran it.
        for (const run of [
          () => sqlRows(handle.client, sql`SELECT 1 / 0`),
          () => pool.rows('sql_spec_zero', sql`SELECT 1 / 0`),
        ])
          expect(hasSqlState(await run().catch((error: unknown) => error), '22012')).toBe(true);
      } finally {
        await pool.close();
        await handle.close();
        await database?.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it("bounds every statement of a pool by its statement time-out, and tells a statement's SQLSTATE through either executor", async () => {
    const database = await createTestDatabase('fixture', { migrationsDir });
    const handle = await createPrismaClient(PrismaClient, 'fixture', {
      env: { FIXTURE_DATABASE_URL: database.url },
      migrationsDir,
    });
    const pool = createSqlPool(handle.driver, handle.client, {
      max: 1,
      applicationName: 'sql-spec-bounded',
      statementTimeoutMs: 200,
      asynchronousCommit: true,
    });
    try {
      const settings = sql<{ timeout: string; commit: string }>`
        SELECT current_setting('statement_timeout') AS timeout, current_setting('synchronous_commit') AS commit`;
      expect(await pool.rows('sql_spec_settings', settings)).toEqual([{ timeout: '200ms', commit: 'off' }]);
      const slow = pool.rows('sql_spec_slow', sql`SELECT pg_sleep(2)`);
      const cancelled = await slow.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(hasSqlState(cancelled, '57014')).toBe(true); // query_canceled
      expect(hasSqlState(cancelled, '22012')).toBe(false);
      const byPrisma = await sqlRows(handle.client, sql`SELECT 1 / 0 AS never`).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(hasSqlState(byPrisma, '22012')).toBe(true); // division_by_zero, under Prisma's error
    } finally {
      await pool.close();
      await handle.close();
      await database.drop();
    }
  });
});
