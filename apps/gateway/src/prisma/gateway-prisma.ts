import { sqlBuilder } from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { PrismaClient } from '../generated/prisma/client';

/**
 * The gateway's Prisma client. Injected by its class; built once per process (see bootstrap) so the public and
 * operator servers share one connection pool (and, on PGlite, one embedded database).
 */
export { PrismaClient as GatewayPrisma };

/** Kysely over the gateway's generated table types: builds its hand-written statements (ADR 0070). */
export const db = sqlBuilder<DB>();
