import { PrismaClient } from '../generated/prisma/client';

/** calls-media's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as CallsMediaPrisma };
