import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Env } from './database-config.ts';
import { createPrismaClient, type PrismaClientClass, type PrismaClientHandle } from './prisma-client.ts';

const PRISMA_HANDLE = Symbol('PRISMA_HANDLE');

@Injectable()
class PrismaCloser implements OnApplicationShutdown {
  constructor(@Inject(PRISMA_HANDLE) private readonly handle: PrismaClientHandle<unknown>) {}

  onApplicationShutdown(): Promise<void> {
    return this.handle.close();
  }
}

/** Whether the app's database answers; used by the service's /readyz. */
@Injectable()
export class DatabaseHealth {
  constructor(
    @Inject(PRISMA_HANDLE) private readonly handle: PrismaClientHandle<{ $kysely(): QueryExecutorProvider }>,
  ) {}

  async ping(): Promise<boolean> {
    try {
      await sql`SELECT 1`.execute(this.handle.client.$kysely());
      return true;
    } catch {
      return false;
    }
  }
}

export interface PrismaModuleOptions<Client> {
  /** The app's client class (`extendedClientClass` for a client with `$kysely()`); it is also the injection token. */
  client: PrismaClientClass<Client & { $disconnect(): Promise<void> }>;
  appName: string;
  /** Migrations applied at start, before the client is handed out. */
  migrationsDir: string;
  env?: Env;
}

/**
 * An app's database as a Nest provider: migrations applied on start, the client injectable by its class, and
 * closed (with the embedded PGlite, if any) when the app shuts down.
 */
@Global()
@Module({})
export class PrismaModule {
  static forRoot<Client>(options: PrismaModuleOptions<Client>): DynamicModule {
    return {
      module: PrismaModule,
      providers: [
        {
          provide: PRISMA_HANDLE,
          useFactory: () =>
            createPrismaClient(options.client, options.appName, {
              env: options.env,
              migrationsDir: options.migrationsDir,
            }),
        },
        {
          provide: options.client,
          useFactory: (handle: PrismaClientHandle<Client>) => handle.client,
          inject: [PRISMA_HANDLE],
        },
        PrismaCloser,
        DatabaseHealth,
      ],
      exports: [options.client, DatabaseHealth],
    };
  }
}
