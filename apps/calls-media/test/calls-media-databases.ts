import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient } from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { CallsMediaPrisma } from '../src/prisma/calls-media-prisma';

const MIGRATIONS_DIR = join(__dirname, '..', 'prisma', 'migrations');

/** The two databases a calls-media deployment can have: PostgreSQL, and embedded PGlite (`npm start` alone). */
export const CALLS_MEDIA_DATABASES = [
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const;

export type CallsMediaDatabaseKind = (typeof CALLS_MEDIA_DATABASES)[number][1];

export interface OpenCallsMediaDatabase {
  client: CallsMediaPrisma;
  close(): Promise<void>;
}

/** A new, migrated calls-media database of that kind and a Prisma client on it; `close` drops it. */
export async function openCallsMediaDatabase(kind: CallsMediaDatabaseKind): Promise<OpenCallsMediaDatabase> {
  let db: TestDatabase | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  if (kind === 'postgres') {
    db = await createTestDatabase('calls-media');
    env = { CALLS_MEDIA_DATABASE_URL: db.url };
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'sb-calls-media-'));
    env = { DATA_DIR: dataDir };
  }
  const handle = await createPrismaClient(CallsMediaPrisma, 'calls-media', { env, migrationsDir: MIGRATIONS_DIR });
  return {
    client: handle.client,
    async close() {
      await handle.close();
      await db?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
