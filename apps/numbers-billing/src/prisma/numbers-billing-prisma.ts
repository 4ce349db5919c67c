import { PrismaClient } from '../generated/prisma/client';

/** numbers-billing's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as NumbersBillingPrisma };
