import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createPrismaClient,
  extendedClientClass,
  hasSqlState,
  isDatabaseUnavailable,
  kyselyExtension,
  type PrismaClientClass,
  type PrismaClientHandle,
} from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { sql, type ColumnType, type Kysely } from 'kysely';
import { Client } from 'pg';

jest.setTimeout(60_000);

const repoRoot = path.resolve(__dirname, '../../..');
const fixtures = path.resolve(__dirname, '../test-fixtures');
const migrationsDir = path.join(fixtures, 'migrations');

/** The fixture's tables as prisma-kysely would generate them (the fixture schema has no kysely generator). */
interface FixtureDb {
  widgets: { id: string; name: string; kind: string; created_at: ColumnType<Date, Date | string | undefined, Date> };
  parts: { id: ColumnType<bigint, never, never>; label: string; widget_id: string };
}

/** The slice of the fixture's extended client these tests use (the client is generated at test time). */
interface FixtureTx {
  $kysely: Kysely<FixtureDb>;
  widget: { count(args?: object): Promise<number>; create(args: object): Promise<unknown> };
}
interface FixtureClient extends FixtureTx {
  $transaction<R>(work: (tx: FixtureTx) => Promise<R>, options?: object): Promise<R>;
  $disconnect(): Promise<void>;
}

let FixturePrisma: PrismaClientClass<FixtureClient>;

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
  const { PrismaClient } = require(path.join(fixtures, 'generated/prisma/client.ts')) as {
    PrismaClient: new (options: object) => { $extends(extension: unknown): FixtureClient };
  };
  // As each app declares its client (apps/*/src/prisma/*-prisma.ts).
  FixturePrisma = extendedClientClass((options: object) =>
    new PrismaClient(options).$extends(kyselyExtension<FixtureDb>()),
  ) as PrismaClientClass<FixtureClient>;
});

const big = 9_007_199_254_740_993n; // past Number.MAX_SAFE_INTEGER: a string or a number would show
const widgetId = (n: number) => `00000000-0000-0000-0000-${n.toString(16).padStart(12, '0')}`;

describe.each(['postgres', 'pglite'] as const)("Kysely through the Prisma client's $kysely (%s)", (kind) => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let handle: PrismaClientHandle<FixtureClient>;
  let db: FixtureClient;

  beforeAll(async () => {
    if (kind === 'postgres') {
      database = await createTestDatabase('fixture', { migrationsDir });
      // A database whose sessions are not in UTC by default, as a server set up elsewhere may be.
      const admin = new Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(
        `ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET timezone = 'America/New_York'`,
      );
      await admin.end();
    } else {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-kysely-'));
    }
    const env = database ? { FIXTURE_DATABASE_URL: database.url } : { DATA_DIR: dataDir! };
    handle = await createPrismaClient(FixturePrisma, 'fixture', { env, migrationsDir });
    db = handle.client;
  });

  afterAll(async () => {
    await handle?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('returns typed rows: builder and sql tag alike, bigint as bigint, and counts what a write changed', async () => {
    const inserted = await db.$kysely
      .insertInto('widgets')
      .values({ id: widgetId(1), name: 'w1', kind: 'small' })
      .executeTakeFirstOrThrow();
    expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    expect(await db.$kysely.selectFrom('widgets').select(['id', 'name']).where('name', '=', 'w1').execute()).toEqual([
      { id: widgetId(1), name: 'w1' },
    ]);
    expect((await sql<{ big: bigint }>`SELECT ${big.toString()}::bigint AS big`.execute(db.$kysely)).rows).toEqual([
      { big },
    ]);
    const updated = await db.$kysely
      .updateTable('widgets')
      .set({ kind: 'large' })
      .where('name', 'in', ['w1', 'none'])
      .executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(1n);
  });

  it('reads and compares a timestamptz as the same instant whatever the database default time zone', async () => {
    const at = new Date('2026-11-27T09:02:34.213Z');
    await db.$kysely
      .insertInto('widgets')
      .values({ id: widgetId(2), name: 'w2', kind: 'small', created_at: at })
      .execute();
    const [row] = await db.$kysely
      .selectFrom('widgets')
      .select(['created_at', sql<string>`current_setting('TimeZone')`.as('zone')])
      .where('created_at', '=', at)
      .execute();
    expect(row.created_at).toEqual(at);
    expect(row.zone).toBe('UTC');
    const literal = sql<{ at: Date }>`SELECT '2026-11-27 04:02:34.213-05'::timestamptz AS at`;
    expect((await literal.execute(db.$kysely)).rows).toEqual([{ at }]);
  });

  it("runs tx.$kysely inside the Prisma transaction: one commit or one rollback with the client's own writes", async () => {
    const seen = await db.$transaction(async (tx) => {
      await tx.$kysely
        .insertInto('widgets')
        .values({ id: widgetId(3), name: 'w3', kind: 'small' })
        .execute();
      await tx.widget.create({ data: { id: widgetId(4), name: 'w4' } });
      // Not committed yet: the client, on another connection, does not see it (PGlite has one connection only).
      const outside =
        kind === 'postgres'
          ? await db.$kysely.selectFrom('widgets').select('id').where('name', '=', 'w3').execute()
          : [];
      const inside = await tx.$kysely.selectFrom('widgets').select('id').where('name', 'in', ['w3', 'w4']).execute();
      return { outside: outside.length, inside: inside.length };
    });
    expect(seen).toEqual({ outside: 0, inside: 2 });
    await expect(
      db.$transaction(async (tx) => {
        await tx.$kysely
          .insertInto('widgets')
          .values({ id: widgetId(5), name: 'w5', kind: 'small' })
          .execute();
        await tx.widget.create({ data: { id: widgetId(6), name: 'w6' } });
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await db.widget.count({ where: { name: { in: ['w3', 'w4', 'w5', 'w6'] } } })).toBe(2);
  });

  it('keeps each of several open transactions on its own Kysely', async () => {
    const transactionId = async (tx: FixtureTx) =>
      (await sql<{ id: string }>`SELECT txid_current()::text AS id`.execute(tx.$kysely)).rows[0].id;
    const seen = await Promise.all(
      [0, 1, 2, 3].map(() =>
        db.$transaction(async (tx) => {
          const first = await transactionId(tx);
          // Long enough for the others to begin theirs (on PostgreSQL; PGlite runs them one after another).
          await new Promise((resolve) => setTimeout(resolve, 200));
          return { first, then: await transactionId(tx) };
        }),
      ),
    );
    for (const { first, then } of seen) expect(then).toBe(first);
    expect(new Set(seen.map(({ first }) => first)).size).toBe(4);
  });

  it('takes a transaction-scoped lock with the lock function in FROM: a void column cannot be read', async () => {
    // Prisma's raw path reads every column of the answer, and has no type for `void`: a repository that takes an
    // advisory lock calls the function in FROM (`SELECT 1 FROM pg_advisory_xact_lock(...)`).
    const locked = await db.$transaction(async (tx) => {
      const { rows } = await sql<{
        locked: number;
      }>`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext('x'))`.execute(tx.$kysely);
      return rows;
    });
    expect(locked).toEqual([{ locked: 1 }]);
    const voidColumn = await db
      .$transaction((tx) => sql`SELECT pg_advisory_xact_lock(hashtext('x'))`.execute(tx.$kysely))
      .then(
        () => 'read',
        () => 'refused',
      );
    expect(voidColumn).toBe('refused');
  });

  it('tells a refused statement by its SQLSTATE, through the client and through a transaction', async () => {
    const direct = await sql`SELECT 1 / 0`.execute(db.$kysely).catch((error: unknown) => error);
    expect(hasSqlState(direct, '22012')).toBe(true); // division_by_zero, under Prisma's error
    expect(isDatabaseUnavailable(direct)).toBe(false);
    const inTransaction = await db
      .$transaction((tx) => sql`SELECT 1 / 0`.execute(tx.$kysely))
      .catch((error: unknown) => error);
    expect(hasSqlState(inTransaction, '22012')).toBe(true);
  });

  if (kind === 'postgres') {
    it('skips the rows another transaction holds (FOR UPDATE SKIP LOCKED)', async () => {
      await db.$kysely
        .insertInto('widgets')
        .values([
          { id: widgetId(7), name: 'lock-a', kind: 'small' },
          { id: widgetId(8), name: 'lock-b', kind: 'small' },
        ])
        .execute();
      const lockable = (tx: FixtureTx) =>
        tx.$kysely
          .selectFrom('widgets')
          .select('name')
          .where('name', 'like', 'lock-%')
          .orderBy('name')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .execute();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const taken = new Promise<void>((resolve) => (holding = resolve));
      const first = db.$transaction(async (tx) => {
        const rows = await lockable(tx);
        holding();
        await held;
        return rows;
      });
      await taken;
      const second = await db.$transaction((tx) => lockable(tx));
      release();
      expect(await first).toEqual([{ name: 'lock-a' }]);
      expect(second).toEqual([{ name: 'lock-b' }]);
    });
  }
});

describe('a database that cannot be reached', () => {
  it("fails a $kysely statement with an error isDatabaseUnavailable recognises (the services' 503)", async () => {
    const handle = await createPrismaClient(FixturePrisma, 'fixture', {
      env: { FIXTURE_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' },
    });
    try {
      const error = await sql`SELECT 1`.execute(handle.client.$kysely).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await handle.close();
    }
  });
});
