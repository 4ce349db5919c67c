import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMigrations } from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { Client } from 'pg';

jest.setTimeout(60_000);

const MIGRATIONS = join(__dirname, '..', 'prisma', 'migrations');

/**
 * Migrations that change what rows mean are run over rows written before them: the database is migrated up to the
 * migration before the one under test, filled the way the code of that time wrote it, then migrated the rest.
 */
describe('lostfound migrations over existing rows', () => {
  let dir: string;
  let db: TestDatabase;
  let pg: Client;

  /** A migrations directory holding the lock file and the migrations before `name`. */
  function migrationsBefore(name: string): string {
    const target = mkdtempSync(join(tmpdir(), 'sb-lostfound-migrations-'));
    cpSync(join(MIGRATIONS, 'migration_lock.toml'), join(target, 'migration_lock.toml'));
    for (const entry of readdirSync(MIGRATIONS).filter((entry) => /^\d{14}_/.test(entry) && entry < name)) {
      cpSync(join(MIGRATIONS, entry), join(target, entry), { recursive: true });
    }
    return target;
  }

  async function migrateTo(name: string): Promise<void> {
    cpSync(join(MIGRATIONS, name), join(dir, name), { recursive: true });
    await applyMigrations({ appName: 'lostfound', migrationsDir: dir, env: { LOSTFOUND_DATABASE_URL: db.url } });
  }

  afterEach(async () => {
    await pg?.end().catch(() => undefined);
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('category_as_given: keeps the class as the category of older rows and copies it into category_class', async () => {
    const migration = readdirSync(MIGRATIONS).find((entry) => entry.endsWith('_category_as_given'))!;
    dir = migrationsBefore(migration);
    db = await createTestDatabase('lostfound', { migrationsDir: dir });
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    const [{ id: locationId }] = (
      await pg.query(`INSERT INTO locations (account_id, name) VALUES ('acct_old', 'Old') RETURNING id`)
    ).rows;
    // Before the migration a scarf was stored as its class, `clothing`.
    await pg.query(
      `INSERT INTO found_items (location_id, category, value_class, description, found_date) VALUES ($1, 'clothing', 'low', 'Green scarf', '2026-11-01')`,
      [locationId],
    );
    await pg.query(
      `INSERT INTO claims (location_id, claimant_name, claimant_phone, category, value_class) VALUES ($1, 'Ana', '+14158675309', 'id_document', 'high')`,
      [locationId],
    );

    await migrateTo(migration);

    expect((await pg.query('SELECT category, category_class FROM found_items')).rows).toEqual([
      { category: 'clothing', category_class: 'clothing' },
    ]);
    expect((await pg.query('SELECT category, category_class FROM claims')).rows).toEqual([
      { category: 'id_document', category_class: 'id_document' },
    ]);
    // The regenerated search vectors cover the old rows too.
    const found = await pg.query(
      `SELECT count(*)::int AS n FROM found_items WHERE search @@ to_tsquery('english', 'clothing')`,
    );
    const claims = await pg.query(
      `SELECT count(*)::int AS n FROM claims WHERE search @@ to_tsquery('english', 'id & document')`,
    );
    expect([found.rows[0].n, claims.rows[0].n]).toEqual([1, 1]);
  });
});
