import * as path from 'node:path';
import { Client } from 'pg';
import { createDriverAdapter, createSqlPool } from '@switchboard/persistence';
import { createTestDatabase } from '@switchboard/testing';
import { sql } from 'kysely';

const migrationsDir = path.resolve(__dirname, '../test-fixtures/migrations');

jest.setTimeout(30_000);

describe('a SqlPool whose idle connection the database drops', () => {
  it('warns through its logger, naming the pool, and answers the next statement on a new connection', async () => {
    const database = await createTestDatabase('fixture', { migrationsDir });
    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const driver = await createDriverAdapter('fixture', { FIXTURE_DATABASE_URL: database.url });
    // On PostgreSQL the pool never uses the Prisma client (that is PGlite's path).
    const pool = createSqlPool(driver, undefined as never, {
      max: 1,
      applicationName: 'idle-spec',
      logger: { warn: (fields, message) => warnings.push({ fields: fields as Record<string, unknown>, message }) },
    });
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      const one = sql<{ one: number }>`SELECT 1 AS one`;
      expect(await pool.rows('idle_spec_one', one)).toEqual([{ one: 1 }]);
      // A restarted database, as the pool sees it: its idle connection is terminated under it.
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'idle-spec'");
      for (let i = 0; i < 100 && warnings.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings).toEqual([
        {
          fields: { err: expect.any(Error), pool: 'idle-spec' },
          message: 'database connection failed while idle; it will be replaced',
        },
      ]);
      expect(await pool.rows('idle_spec_one', one)).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await pool.close();
      await database.drop();
    }
  });
});
