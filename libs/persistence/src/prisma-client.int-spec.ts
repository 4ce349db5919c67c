import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createPrismaClient, type PrismaClientClass } from '@switchboard/persistence';
import { createTestDatabase } from '@switchboard/testing';

jest.setTimeout(60_000);

const repoRoot = path.resolve(__dirname, '../../..');
const fixtures = path.resolve(__dirname, '../test-fixtures');
const migrationsDir = path.join(fixtures, 'migrations');

interface Widget {
  id: string;
  name: string;
  kind: 'small' | 'large';
  parts: { label: string }[];
}
/** The slice of the generated fixture client these tests use (it is generated at test time, not committed). */
interface FixtureClient {
  widget: {
    create(args: object): Promise<Widget>;
    findUniqueOrThrow(args: object): Promise<Widget>;
  };
  $disconnect(): Promise<void>;
}
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

async function roundTrip(client: FixtureClient, name: string): Promise<void> {
  const created = await client.widget.create({
    data: { name, kind: 'large', parts: { create: [{ label: 'a' }, { label: 'b' }] } },
  });
  const read = await client.widget.findUniqueOrThrow({
    where: { id: created.id },
    include: { parts: { orderBy: { label: 'asc' } } },
  });
  expect(read).toMatchObject({ name, kind: 'large', parts: [{ label: 'a' }, { label: 'b' }] });
}

describe('createPrismaClient', () => {
  it('on embedded PGlite: migrates DATA_DIR/<app> through the same instance, and the data survives a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-prisma-client-'));
    const env = { DATA_DIR: dataDir };
    try {
      const first = await createPrismaClient(PrismaClient, 'fixture', { env, migrationsDir });
      expect(first.migrations?.appliedMigrationNames).toEqual(['20260101000000_init']);
      expect(first.driver.description).toBe(`PGlite ${path.join(dataDir, 'fixture')}`);
      await roundTrip(first.client, 'persisted');
      await first.close();
      await first.close(); // idempotent
      expect(first.driver.pglite?.closed).toBe(true);

      const second = await createPrismaClient(PrismaClient, 'fixture', { env, migrationsDir });
      try {
        expect(second.migrations?.appliedMigrationNames).toEqual([]);
        const again = await second.client.widget.findUniqueOrThrow({ where: { name: 'persisted' } });
        expect(again.kind).toBe('large');
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL from <APP>_DATABASE_URL', async () => {
    const db = await createTestDatabase('fixture', { migrationsDir });
    try {
      const handle = await createPrismaClient(PrismaClient, 'fixture', { env: { FIXTURE_DATABASE_URL: db.url } });
      try {
        expect(handle.driver.location.kind).toBe('postgres');
        expect(handle.migrations).toBeUndefined();
        await roundTrip(handle.client, 'on-postgres');
      } finally {
        await handle.close();
      }
    } finally {
      await db.drop();
    }
  });
});
