import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyMigrations } from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { Client } from 'pg';

jest.setTimeout(120_000);

/** The migration that makes the rule (docs/adr/0121-calls-and-recordings.md). */
const MIGRATION = '20261128100000_one_number_in_service_per_phone_number';
const migrationsDir = path.resolve(__dirname, '../prisma/migrations');

const databases: TestDatabase[] = [];
const tmpDirs: string[] = [];
afterAll(async () => {
  await Promise.allSettled(databases.map((db) => db.drop()));
  tmpDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function addAccount(client: Client, id: string): Promise<void> {
  await client.query(`INSERT INTO accounts (id, name) VALUES ($1, $1)`, [id]);
}

/** A `numbers` row as provisioning writes one, straight into the table (no service in the way). */
async function addNumber(
  client: Client,
  row: { id: number; account_id: string; phone_number: string; status?: string; created_at: string },
): Promise<void> {
  await client.query(
    `INSERT INTO numbers (id, account_id, phone_number, business_phone, area_code, status, webhook_secret_key_id,
                          webhook_secret_ciphertext, next_charge_at, created_at)
     VALUES ($1, $2, $3, '+14155550123', '512', $4, 'k1', 'sealed', $5::timestamptz + interval '1 month', $5)`,
    [row.id, row.account_id, row.phone_number, row.status ?? 'active', row.created_at],
  );
}

describe('one number in service per phone number (numbers-billing database, real PostgreSQL)', () => {
  it('refuses a second number not released with the same phone number, and allows it beside released ones', async () => {
    const db = await createTestDatabase('numbers-billing');
    databases.push(db);
    await withClient(db.url, async (client) => {
      await addAccount(client, 'acct_x');
      await addAccount(client, 'acct_y');
      await addNumber(client, { id: 1, account_id: 'acct_x', phone_number: '+15125550100', created_at: '2026-11-01' });

      // Another account, active or past_due: refused by the partial unique index.
      for (const status of ['active', 'past_due']) {
        await expect(
          addNumber(client, {
            id: 2,
            account_id: 'acct_y',
            phone_number: '+15125550100',
            status,
            created_at: '2026-11-02',
          }),
        ).rejects.toMatchObject({ code: '23505', constraint: 'numbers_phone_number_in_service_key' });
      }
      // A number of the same account is no exception.
      await expect(
        addNumber(client, { id: 2, account_id: 'acct_x', phone_number: '+15125550100', created_at: '2026-11-02' }),
      ).rejects.toMatchObject({ code: '23505' });
      // Nor is changing a released one back to active while another holds the phone number.
      await addNumber(client, {
        id: 3,
        account_id: 'acct_y',
        phone_number: '+15125550100',
        status: 'released',
        created_at: '2026-10-01',
      });
      await expect(client.query(`UPDATE numbers SET status = 'active' WHERE id = 3`)).rejects.toMatchObject({
        code: '23505',
      });

      // Once released, the phone number can be held again, by anyone.
      await client.query(`UPDATE numbers SET status = 'released', released_at = now() WHERE id = 1`);
      await addNumber(client, { id: 4, account_id: 'acct_y', phone_number: '+15125550100', created_at: '2026-11-03' });
      const rows = await client.query<{ id: string; status: string }>(
        `SELECT id, status FROM numbers WHERE phone_number = '+15125550100' ORDER BY id`,
      );
      expect(rows.rows).toEqual([
        { id: '1', status: 'released' },
        { id: '3', status: 'released' },
        { id: '4', status: 'active' },
      ]);
    });
  });

  it('applies to a database already holding duplicates: the first provisioned keeps the phone number, the rest are released and published', async () => {
    // The migrations before this one, as a deployed database had them.
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-nb-migrations-'));
    tmpDirs.push(before);
    for (const entry of fs.readdirSync(migrationsDir)) {
      if (entry >= MIGRATION && entry !== 'migration_lock.toml') continue;
      fs.cpSync(path.join(migrationsDir, entry), path.join(before, entry), { recursive: true });
    }
    const db = await createTestDatabase('numbers-billing', { migrationsDir: before });
    databases.push(db);
    await withClient(db.url, async (client) => {
      for (const id of ['acct_old', 'acct_new', 'acct_newer', 'acct_other']) await addAccount(client, id);
      // +15125550100 on three accounts at once; its first holder provisioned it last by id but first in time.
      await addNumber(client, {
        id: 10,
        account_id: 'acct_new',
        phone_number: '+15125550100',
        created_at: '2026-11-05',
      });
      await addNumber(client, {
        id: 11,
        account_id: 'acct_old',
        phone_number: '+15125550100',
        created_at: '2026-11-01',
      });
      await addNumber(client, {
        id: 12,
        account_id: 'acct_newer',
        phone_number: '+15125550100',
        status: 'past_due',
        created_at: '2026-11-09',
      });
      // A released holder of long ago, and a number nobody else holds: both untouched.
      await addNumber(client, {
        id: 13,
        account_id: 'acct_other',
        phone_number: '+15125550100',
        status: 'released',
        created_at: '2026-10-01',
      });
      await addNumber(client, {
        id: 14,
        account_id: 'acct_other',
        phone_number: '+15125550101',
        created_at: '2026-11-02',
      });
    });

    const applied = await applyMigrations({
      appName: 'numbers-billing',
      migrationsDir,
      env: { NUMBERS_BILLING_DATABASE_URL: db.url },
    });
    // This migration first; later ones (made after it) follow it on such a database.
    expect(applied.appliedMigrationNames[0]).toBe(MIGRATION);

    await withClient(db.url, async (client) => {
      const rows = await client.query<{ id: string; status: string; version: string; released: boolean }>(
        `SELECT id, status, version, released_at IS NOT NULL AS released FROM numbers ORDER BY id`,
      );
      expect(rows.rows).toEqual([
        { id: '10', status: 'released', version: '2', released: true },
        { id: '11', status: 'active', version: '1', released: false },
        { id: '12', status: 'released', version: '2', released: true },
        { id: '13', status: 'released', version: '1', released: false },
        { id: '14', status: 'active', version: '1', released: false },
      ]);
      // Each release is published as any release is, so calls-media ends the tenure.
      const events = await client.query<{ type: string; payload: { id: string; data: Record<string, unknown> } }>(
        `SELECT type, payload FROM outbox_events ORDER BY payload->'data'->>'number_id'`,
      );
      expect(events.rows).toEqual([
        {
          type: 'number.released',
          payload: expect.objectContaining({
            type: 'number.released',
            data: expect.objectContaining({
              number_id: 'num_10',
              account_id: 'acct_new',
              phone_number: '+15125550100',
              status: 'released',
              answering: false,
              version: '2',
            }),
          }),
        },
        {
          type: 'number.released',
          payload: expect.objectContaining({
            data: expect.objectContaining({ number_id: 'num_12', account_id: 'acct_newer', version: '2' }),
          }),
        },
      ]);
      // Now the rule holds.
      await expect(
        addNumber(client, { id: 15, account_id: 'acct_new', phone_number: '+15125550100', created_at: '2026-11-10' }),
      ).rejects.toMatchObject({ code: '23505', constraint: 'numbers_phone_number_in_service_key' });
    });
  });
});
