import { Injectable } from '@nestjs/common';
import { sqlBuilder, Transactions } from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/** numbers-billing's Prisma client, injected by this class (see PrismaModule). */
export { PrismaClient as NumbersBillingPrisma };

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

/**
 * Options of the transactions that take row locks: waiting behind other requests for the same account is
 * normal, so they may wait for a connection and run longer than Prisma's defaults (2 s, 5 s).
 */
export const LOCKING_TX = { maxWait: 15_000, timeout: 30_000 } as const;

/** Kysely over numbers-billing's generated table types: builds its hand-written statements (ADR 0070). */
export const db = sqlBuilder<DB>();

/** numbers-billing's transactions: what services open, handing `tx` to repositories (they do not hold the client). */
@Injectable()
export class NumbersBillingTransactions extends Transactions<Tx> {
  constructor(prisma: PrismaClient) {
    super(prisma);
  }
}
