import { Injectable } from '@nestjs/common';
import {
  extendedClientClass,
  kyselyExtension,
  sqlBuilder,
  Transactions,
  type TransactionClientOf,
} from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/** numbers-billing's Prisma client, with `$kysely()` for its hand-written statements (ADR 0070); injected by this class. */
export const NumbersBillingPrisma = extendedClientClass((options: Prisma.PrismaClientOptions) =>
  new PrismaClient(options).$extends(kyselyExtension<DB>()),
);
export type NumbersBillingPrisma = InstanceType<typeof NumbersBillingPrisma>;

/** The client inside an interactive transaction, `$kysely()` included. */
export type Tx = TransactionClientOf<NumbersBillingPrisma>;

/**
 * Options of the transactions that take row locks: waiting behind other requests for the same account is
 * normal, so they may wait for a connection and run longer than Prisma's defaults (2 s, 5 s).
 */
export const LOCKING_TX = { maxWait: 15_000, timeout: 30_000 } as const;

/** Builds (compiles only) the statements prepared ahead of a request; they run on `$kysely().executeQuery`. */
export const statements = sqlBuilder<DB>();

/** numbers-billing's transactions: what services open, handing `tx` to repositories (they do not hold the client). */
@Injectable()
export class NumbersBillingTransactions extends Transactions<Tx> {
  constructor(prisma: NumbersBillingPrisma) {
    super(prisma);
  }
}
