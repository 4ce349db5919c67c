import { Prisma, PrismaClient } from '../generated/prisma/client';

/** lostfound's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as LostfoundPrisma };
/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;
export { Prisma };
