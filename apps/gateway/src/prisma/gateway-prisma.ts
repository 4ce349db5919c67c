import { PrismaClient } from '../generated/prisma/client';

/**
 * The gateway's Prisma client. Injected by its class; built once per process (see bootstrap) so the public and
 * operator servers share one connection pool (and, on PGlite, one embedded database).
 */
export { PrismaClient as GatewayPrisma };
