import { Injectable } from '@nestjs/common';
import { sqlBuilder, Transactions } from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/** webhook-dispatcher's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as WebhookDispatcherPrisma };

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

/** Kysely over webhook-dispatcher's generated table types: builds its hand-written statements (ADR 0070). */
export const db = sqlBuilder<DB>();

/** webhook-dispatcher's transactions: what services open, handing `tx` to repositories (they do not hold the client). */
@Injectable()
export class WebhookDispatcherTransactions extends Transactions<Tx> {
  constructor(prisma: PrismaClient) {
    super(prisma);
  }
}
