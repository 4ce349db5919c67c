import type { ITXClientDenyList } from '@prisma/client/runtime/client';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Env } from './database-config.ts';
import { createDriverAdapter, type DatabaseDriver } from './driver-adapter.ts';
import { applyMigrations, type ApplyMigrationsResult } from './migrations.ts';

/** What this library needs of a generated `PrismaClient` class. */
export type PrismaClientClass<Client extends { $disconnect(): Promise<void> }> = new (options: {
  adapter: SqlMigrationAwareDriverAdapterFactory;
  errorFormat?: 'minimal' | 'colorless' | 'pretty';
}) => Client;

/** A client inside one of its interactive transactions, as Prisma types the argument of `$transaction`'s callback. */
export type TransactionClientOf<Client> = Omit<Client, ITXClientDenyList>;

/**
 * A class whose `new` gives the app's extended client (`new PrismaClient(options).$extends(...)`: `$extends` returns a
 * new object, which no subclass can be). With it the extended client is built by `createPrismaClient` and injected by
 * class, as the generated client was. Declare the class and its instance type under one name:
 *
 * ```ts
 * export const GatewayPrisma = extendedClientClass((options: PrismaClientOptions) =>
 *   new PrismaClient(options).$extends(kyselyExtension<DB>()));
 * export type GatewayPrisma = InstanceType<typeof GatewayPrisma>;
 * ```
 */
export function extendedClientClass<Options, Client>(
  extend: (options: Options) => Client,
): new (options: Options) => Client {
  // `new` on a function that returns an object gives that object.
  return function ExtendedPrismaClient(options: Options) {
    return extend(options);
  } as unknown as new (options: Options) => Client;
}

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
  // 'minimal' in every environment, not only under NODE_ENV=production: the other formats capture a stack trace on
  // every statement to point at the caller's line in an error message, a cost paid by every request for a message
  // our error mapping (SQLSTATE, Prisma's error code) never reads.
  const client = new ClientClass({ adapter: driver.adapter, errorFormat: 'minimal' });
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
