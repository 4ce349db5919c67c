import {
  Global,
  Inject,
  Injectable,
  Module,
  Optional,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import type { Env } from './database-config.ts';
import { createPrismaClient, type PrismaClientClass, type PrismaClientHandle } from './prisma-client.ts';
import { sql } from 'kysely';
import { createSqlPool, type RawQueryClient, type SqlPool, type SqlPoolOptions } from './sql-pool.ts';
import { sqlRows } from './sql.ts';

const PRISMA_HANDLE = Symbol('PRISMA_HANDLE');
const SQL_POOLS = Symbol('SQL_POOLS');

@Injectable()
class PrismaCloser implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA_HANDLE) private readonly handle: PrismaClientHandle<unknown>,
    @Optional() @Inject(SQL_POOLS) private readonly pools: SqlPool[] = [],
  ) {}

  async onApplicationShutdown(): Promise<void> {
    try {
      await Promise.all(this.pools.map((pool) => pool.close()));
    } finally {
      await this.handle.close();
    }
  }
}

/** Whether the app's database answers; used by the service's /readyz. */
@Injectable()
export class DatabaseHealth {
  constructor(@Inject(PRISMA_HANDLE) private readonly handle: PrismaClientHandle<RawQueryClient>) {}

  async ping(): Promise<boolean> {
    try {
      await sqlRows(this.handle.client, sql`SELECT 1`);
      return true;
    } catch {
      return false;
    }
  }
}

export interface PrismaModuleOptions<Client> {
  /** The app's generated client class; it is also the injection token. */
  client: PrismaClientClass<Client & { $disconnect(): Promise<void> }>;
  appName: string;
  /** Migrations applied at start, before the client is handed out. */
  migrationsDir: string;
  env?: Env;
  /**
   * `SqlPool`s (plain SQL for the statements run on every request or event) beside the client, on the same
   * database, each injectable by its `token` and closed with the client.
   */
  sqlPools?: (SqlPoolOptions & { token: symbol })[];
  /** Where the pools report an idle connection's failure (`SqlPoolOptions.logger`), unless a pool names its own. */
  logger?: SqlPoolOptions['logger'];
}

/**
 * An app's database as a Nest provider: migrations applied on start, the client injectable by its class, and
 * closed (with the embedded PGlite, if any) when the app shuts down.
 */
@Global()
@Module({})
export class PrismaModule {
  static forRoot<Client>(options: PrismaModuleOptions<Client>): DynamicModule {
    const pools = options.sqlPools ?? [];
    const sql: Provider[] = [
      {
        provide: SQL_POOLS,
        useFactory: (handle: PrismaClientHandle<RawQueryClient>) =>
          pools.map(({ token: _token, ...poolOptions }) =>
            createSqlPool(handle.driver, handle.client, { logger: options.logger, ...poolOptions }),
          ),
        inject: [PRISMA_HANDLE],
      },
      ...pools.map(({ token }, index) => ({
        provide: token,
        useFactory: (created: SqlPool[]) => created[index],
        inject: [SQL_POOLS],
      })),
    ];
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
        ...sql,
        PrismaCloser,
        DatabaseHealth,
      ],
      exports: [options.client, DatabaseHealth, ...pools.map(({ token }) => token)],
    };
  }
}
