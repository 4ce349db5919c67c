import { PrismaClient } from '../generated/prisma/client';

/** webhook-dispatcher's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as WebhookDispatcherPrisma };
