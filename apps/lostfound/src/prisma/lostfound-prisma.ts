import { Injectable } from '@nestjs/common';
import { Transactions } from '@switchboard/persistence';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** lostfound's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as LostfoundPrisma };
/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;
export { Prisma };

/** lostfound's transactions: what services open, handing `tx` to repositories (they do not hold the client). */
@Injectable()
export class LostfoundTransactions extends Transactions<Tx> {
  constructor(prisma: PrismaClient) {
    super(prisma);
  }
}
