import { Injectable } from '@nestjs/common';
import { extendedClientClass, kyselyExtension, Transactions, type TransactionClientOf } from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** lostfound's Prisma client, with `$kysely()` for its hand-written statements (ADR 0070); injected by this class. */
export const LostfoundPrisma = extendedClientClass((options: Prisma.PrismaClientOptions) =>
  new PrismaClient(options).$extends(kyselyExtension<DB>()),
);
export type LostfoundPrisma = InstanceType<typeof LostfoundPrisma>;

/** The client inside an interactive transaction, `$kysely()` included. */
export type Tx = TransactionClientOf<LostfoundPrisma>;
export { Prisma };

/** lostfound's transactions: what services open, handing `tx` to repositories (they do not hold the client). */
@Injectable()
export class LostfoundTransactions extends Transactions<Tx> {
  constructor(prisma: LostfoundPrisma) {
    super(prisma);
  }
}
