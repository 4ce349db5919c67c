import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Env } from './database-config.ts';
import { createDriverAdapter, type DatabaseDriver } from './driver-adapter.ts';
import { applyMigrations, type ApplyMigrationsResult } from './migrations.ts';

/** What this library needs of a generated `PrismaClient` class. */
export type PrismaClientClass<Client extends { $disconnect(): Promise<void> }> = new (options: {
  adapter: SqlMigrationAwareDriverAdapterFactory;
}) => Client;

export interface CreatePrismaClientOptions {
  /** Defaults to `process.env`. */
  env?: Env;
  /** When given, the app's migrations are applied first, through the same connection/PGlite instance. */
  migrationsDir?: string;
}

export interface PrismaClientHandle<Client> {
  client: Client;
  driver: DatabaseDriver;
  /** Set when `migrationsDir` was given. */
  migrations?: ApplyMigrationsResult;
  /** `$disconnect()`, then close the embedded PGlite (if any). Idempotent; call on shutdown. */
  close(): Promise<void>;
}

/**
 * Builds the app's client as `new ClientClass({ adapter })` over `<APP>_DATABASE_URL` or PGlite in
 * `DATA_DIR/<app>`, optionally applying migrations first.
 */
export async function createPrismaClient<Client extends { $disconnect(): Promise<void> }>(
  ClientClass: PrismaClientClass<Client>,
  appName: string,
  options: CreatePrismaClientOptions = {},
): Promise<PrismaClientHandle<Client>> {
  const driver = await createDriverAdapter(appName, options.env ?? process.env);
  let migrations: ApplyMigrationsResult | undefined;
  try {
    if (options.migrationsDir !== undefined) {
      migrations = await applyMigrations({ appName, migrationsDir: options.migrationsDir, driver });
    }
  } catch (error) {
    await driver.close();
    throw error;
  }
  const client = new ClientClass({ adapter: driver.adapter });
  let closing: Promise<void> | undefined;
  return {
    client,
    driver,
    migrations,
    close: () =>
      (closing ??= (async () => {
        try {
          await client.$disconnect();
        } finally {
          await driver.close();
        }
      })()),
  };
}
