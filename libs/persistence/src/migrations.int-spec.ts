import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { Client } from 'pg';
import {
  applyMigrations,
  checkMigrations,
  createMigration,
  MIGRATION_ADVISORY_LOCK,
  PersistenceError,
} from '@switchboard/persistence';

jest.setTimeout(60_000);

const fixtures = path.resolve(__dirname, '../test-fixtures');
const schemaPath = path.join(fixtures, 'schema.prisma');
const migrationsDir = path.join(fixtures, 'migrations');
const INIT = '20260101000000_init';
const appName = 'fixture';
const urlEnv = (url: string) => ({ FIXTURE_DATABASE_URL: url });

const tmpDirs: string[] = [];
function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-persistence-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(() => tmpDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/**
 * The schema engine's queue (schema-engine.ts keeps it on the global object): each run of the engine replaces
 * it, so an apply that leaves it as it was never started the engine.
 */
const engineQueue = () =>
  (globalThis as unknown as Record<symbol, { queue?: Promise<unknown> } | undefined>)[
    Symbol.for('@switchboard/persistence/schema-engine')
  ]?.queue;

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('applyMigrations on PostgreSQL', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase(appName, { migrate: false });
  });
  afterEach(() => db.drop());

  it('applies the committed migrations to a fresh database and records them as Prisma does', async () => {
    const first = await applyMigrations({ appName, migrationsDir, env: urlEnv(db.url) });
    expect(first.appliedMigrationNames).toEqual([INIT]);
    expect(first.database).toContain(db.name);

    const tables = await query<{ table_name: string }>(
      db.url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(['_prisma_migrations', 'parts', 'widgets']);
    const [row] = await query<Record<string, unknown>>(db.url, 'SELECT * FROM _prisma_migrations');
    const sql = fs.readFileSync(path.join(migrationsDir, INIT, 'migration.sql'));
    expect(row).toMatchObject({
      migration_name: INIT,
      applied_steps_count: 1,
      rolled_back_at: null,
      logs: null,
      checksum: createHash('sha256').update(sql).digest('hex'),
    });
    expect(row.finished_at).toBeInstanceOf(Date);
  });

  it('applies nothing when run again', async () => {
    await applyMigrations({ appName, migrationsDir, env: urlEnv(db.url) });
    const again = await applyMigrations({ appName, migrationsDir, env: urlEnv(db.url) });
    expect(again.appliedMigrationNames).toEqual([]);
    const rows = await query(db.url, 'SELECT 1 FROM _prisma_migrations');
    expect(rows).toHaveLength(1);
  });

  it('does not start the schema engine when every migration is recorded (a service restarting)', async () => {
    await applyMigrations({ appName, migrationsDir, env: urlEnv(db.url) });
    const queue = engineQueue();
    expect(queue).toBeDefined();
    expect((await applyMigrations({ appName, migrationsDir, env: urlEnv(db.url) })).appliedMigrationNames).toEqual([]);
    expect(engineQueue()).toBe(queue);

    // A new migration in the code is the engine's again.
    const dir = tmpDir();
    fs.cpSync(migrationsDir, dir, { recursive: true });
    fs.mkdirSync(path.join(dir, '20260102000000_gizmos'));
    fs.writeFileSync(path.join(dir, '20260102000000_gizmos', 'migration.sql'), 'CREATE TABLE "gizmos" ("id" INT);');
    const next = await applyMigrations({ appName, migrationsDir: dir, env: urlEnv(db.url) });
    expect(next.appliedMigrationNames).toEqual(['20260102000000_gizmos']);
    expect(engineQueue()).not.toBe(queue);
  });

  it('waits for the migration advisory lock another session holds, and gives up after lockTimeoutMs', async () => {
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_ADVISORY_LOCK]);
      await expect(
        applyMigrations({ appName, migrationsDir, env: urlEnv(db.url), lockTimeoutMs: 300 }),
      ).rejects.toThrow(/\[fixture\] another process has held the migration lock .* for over 300 ms/);

      const waiting = applyMigrations({ appName, migrationsDir, env: urlEnv(db.url), lockTimeoutMs: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_ADVISORY_LOCK]);
      await expect(waiting).resolves.toMatchObject({ appliedMigrationNames: [INIT] });
    } finally {
      await holder.end();
    }
  });

  it('serialises concurrent applies: one applies, the other finds nothing to do', async () => {
    const results = await Promise.all([
      applyMigrations({ appName, migrationsDir, env: urlEnv(db.url) }),
      applyMigrations({ appName, migrationsDir, env: urlEnv(db.url) }),
    ]);
    expect(results.map((r) => r.appliedMigrationNames).sort()).toEqual([[], [INIT]]);
  });

  it('reports a failing migration with the app and migration names, and keeps the failure recorded', async () => {
    const dir = tmpDir();
    fs.cpSync(migrationsDir, dir, { recursive: true });
    fs.mkdirSync(path.join(dir, '20260102000000_broken'));
    fs.writeFileSync(
      path.join(dir, '20260102000000_broken', 'migration.sql'),
      'ALTER TABLE "nope" ADD COLUMN "x" INT;',
    );

    const failure = applyMigrations({ appName, migrationsDir: dir, env: urlEnv(db.url) });
    await expect(failure).rejects.toBeInstanceOf(PersistenceError);
    await expect(failure).rejects.toThrow(
      /^\[fixture\] applying migrations to PostgreSQL .*failed: .*nope.*\(in migration 20260102000000_broken\)/s,
    );
    const rows = await query<{ migration_name: string; finished_at: Date | null }>(
      db.url,
      'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY started_at',
    );
    expect(rows).toEqual([
      expect.objectContaining({ migration_name: INIT }),
      { migration_name: '20260102000000_broken', finished_at: null },
    ]);
    // The next start refuses too, as Prisma's own deploy does, until the failure is resolved.
    await expect(applyMigrations({ appName, migrationsDir: dir, env: urlEnv(db.url) })).rejects.toThrow(
      /20260102000000_broken/,
    );
  });
});

/** A hand-written migration with `;` where a naive split breaks it: a comment, a string, a function body. */
function migrationsWithSemicolons(): string {
  const dir = tmpDir();
  fs.cpSync(migrationsDir, dir, { recursive: true });
  fs.mkdirSync(path.join(dir, '20260103000000_semicolons'));
  fs.writeFileSync(
    path.join(dir, '20260103000000_semicolons', 'migration.sql'),
    `-- Hand-written; a comment with a semicolon; and another.
CREATE TABLE "notes" ("body" TEXT NOT NULL DEFAULT 'a; b');
CREATE FUNCTION "shout"(t TEXT) RETURNS TEXT LANGUAGE plpgsql AS $$
BEGIN
  RETURN upper(t); -- inside the body;
END;
$$;
INSERT INTO "notes" DEFAULT VALUES;
`,
  );
  return dir;
}

describe('hand-written migrations', () => {
  it('apply whole on PostgreSQL, with semicolons in comments, strings and function bodies', async () => {
    const db = await createTestDatabase(appName, { migrate: false });
    try {
      await applyMigrations({ appName, migrationsDir: migrationsWithSemicolons(), env: urlEnv(db.url) });
      expect(await query(db.url, 'SELECT shout(body) AS loud FROM notes')).toEqual([{ loud: 'A; B' }]);
    } finally {
      await db.drop();
    }
  });

  it('apply whole on PGlite, and a failing statement fails the migration', async () => {
    const dataDir = path.join(tmpDir(), 'data');
    const dir = migrationsWithSemicolons();
    await applyMigrations({ appName, migrationsDir: dir, env: { DATA_DIR: dataDir } });
    fs.mkdirSync(path.join(dir, '20260104000000_broken'));
    fs.writeFileSync(
      path.join(dir, '20260104000000_broken', 'migration.sql'),
      'SELECT 1; ALTER TABLE "nope" ADD COLUMN "x" INT;',
    );
    await expect(applyMigrations({ appName, migrationsDir: dir, env: { DATA_DIR: dataDir } })).rejects.toThrow(/nope/);
    const pglite = await PGlite.create(path.join(dataDir, appName));
    try {
      expect((await pglite.query<{ loud: string }>('SELECT shout(body) AS loud FROM notes')).rows).toEqual([
        { loud: 'A; B' },
      ]);
    } finally {
      await pglite.close();
    }
  });
});

describe('applyMigrations on embedded PGlite', () => {
  it('creates DATA_DIR/<app>, applies the migrations there, and applies nothing when run again', async () => {
    const dataDir = path.join(tmpDir(), 'data');
    const env = { DATA_DIR: dataDir };

    const first = await applyMigrations({ appName, migrationsDir, env });
    expect(first).toEqual({ appliedMigrationNames: [INIT], database: `PGlite ${path.join(dataDir, appName)}` });
    const queue = engineQueue();
    const again = await applyMigrations({ appName, migrationsDir, env });
    expect(again.appliedMigrationNames).toEqual([]);
    expect(engineQueue()).toBe(queue);

    const pglite = await PGlite.create(path.join(dataDir, appName));
    try {
      const migrations = await pglite.query<{ migration_name: string; finished_at: Date | null }>(
        'SELECT migration_name, finished_at FROM _prisma_migrations',
      );
      expect(migrations.rows).toEqual([{ migration_name: INIT, finished_at: expect.any(Date) }]);
      await pglite.query("INSERT INTO widgets (id, name) VALUES ('00000000-0000-0000-0000-000000000001', 'w')");
      const widgets = await pglite.query<{ kind: string }>('SELECT kind FROM widgets');
      expect(widgets.rows).toEqual([{ kind: 'small' }]);
    } finally {
      await pglite.close();
    }
  });
});

describe('configuration errors', () => {
  it('names the app and the variable when <APP>_DATABASE_URL is not a PostgreSQL URL', async () => {
    await expect(
      applyMigrations({ appName, migrationsDir, env: { FIXTURE_DATABASE_URL: 'mysql://root@localhost/x' } }),
    ).rejects.toThrow('[fixture] FIXTURE_DATABASE_URL must be a postgres:// or postgresql:// URL');
    await expect(
      applyMigrations({ appName, migrationsDir, env: { FIXTURE_DATABASE_URL: 'not a url' } }),
    ).rejects.toThrow('[fixture] FIXTURE_DATABASE_URL is not a valid URL');
  });

  it('names the app and the server when PostgreSQL cannot be reached', async () => {
    await expect(
      applyMigrations({ appName, migrationsDir, env: urlEnv('postgres://postgres@127.0.0.1:1/nowhere') }),
    ).rejects.toThrow(
      /^\[fixture\] cannot connect to PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED/,
    );
  });

  it('refuses a migrations directory with no migrations', async () => {
    await expect(applyMigrations({ appName, migrationsDir: tmpDir(), env: { DATA_DIR: tmpDir() } })).rejects.toThrow(
      /^\[fixture\] no migrations in /,
    );
  });
});

describe('drift detection and migration creation', () => {
  function copyOfFixture(): { schemaPath: string; migrationsDir: string } {
    const dir = tmpDir();
    fs.copyFileSync(schemaPath, path.join(dir, 'schema.prisma'));
    fs.cpSync(migrationsDir, path.join(dir, 'migrations'), { recursive: true });
    return { schemaPath: path.join(dir, 'schema.prisma'), migrationsDir: path.join(dir, 'migrations') };
  }

  it('finds the committed fixture migrations in sync with the fixture schema', async () => {
    await expect(checkMigrations({ appName, schemaPath, migrationsDir })).resolves.toEqual({ inSync: true });
  });

  it('detects a schema change that no migration makes, then writes the migration that makes it', async () => {
    const copy = copyOfFixture();
    const schema = fs.readFileSync(copy.schemaPath, 'utf8');
    fs.writeFileSync(copy.schemaPath, schema.replace('  label    String\n', '  label    String\n  color    String?\n'));

    const drift = await checkMigrations({ appName, ...copy });
    expect(drift).toEqual({
      inSync: false,
      missingSql: expect.stringMatching(/ALTER TABLE "parts" ADD COLUMN\s+"color" TEXT;/),
    });

    const created = await createMigration({
      appName,
      ...copy,
      name: 'Add part color',
      now: new Date('2026-02-03T04:05:06Z'),
    });
    expect(created?.migrationName).toBe('20260203040506_add_part_color');
    expect(
      fs.readFileSync(path.join(copy.migrationsDir, '20260203040506_add_part_color', 'migration.sql'), 'utf8'),
    ).toBe(created?.sql);
    await expect(checkMigrations({ appName, ...copy })).resolves.toEqual({ inSync: true });
    await expect(createMigration({ appName, ...copy, name: 'again' })).resolves.toBeNull();
    expect(fs.readdirSync(copy.migrationsDir).sort()).toEqual([
      INIT,
      '20260203040506_add_part_color',
      'migration_lock.toml',
    ]);
  });

  it('detects a committed migration edited away from the schema', async () => {
    const copy = copyOfFixture();
    const file = path.join(copy.migrationsDir, INIT, 'migration.sql');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('    "label" TEXT NOT NULL,\n', ''));
    const drift = await checkMigrations({ appName, ...copy });
    expect(drift).toEqual({
      inSync: false,
      missingSql: expect.stringMatching(/ALTER TABLE "parts" ADD COLUMN\s+"label" TEXT NOT NULL/),
    });
  });

  it('starts from an empty database when there are no migrations yet, writing the lock file', async () => {
    const dir = tmpDir();
    fs.copyFileSync(schemaPath, path.join(dir, 'schema.prisma'));
    const created = await createMigration({
      appName,
      schemaPath: path.join(dir, 'schema.prisma'),
      migrationsDir: path.join(dir, 'migrations'),
      name: 'init',
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(created?.sql).toBe(fs.readFileSync(path.join(migrationsDir, INIT, 'migration.sql'), 'utf8'));
    expect(fs.readFileSync(path.join(dir, 'migrations', 'migration_lock.toml'), 'utf8')).toBe(
      fs.readFileSync(path.join(migrationsDir, 'migration_lock.toml'), 'utf8'),
    );
  });
});
