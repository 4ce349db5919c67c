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

/** calls-media's Prisma client, with `$kysely()` for its hand-written statements (ADR 0070); injected by this class. */
export const CallsMediaPrisma = extendedClientClass((options: Prisma.PrismaClientOptions) =>
  new PrismaClient(options).$extends(kyselyExtension<DB>()),
);
export type CallsMediaPrisma = InstanceType<typeof CallsMediaPrisma>;

/** The client inside an interactive transaction, `$kysely()` included. */
export type Tx = TransactionClientOf<CallsMediaPrisma>;

/** Builds (compiles only) the statements prepared ahead of a request; they run on `$kysely().executeQuery`. */
export const statements = sqlBuilder<DB>();

/** calls-media's transactions: what opens one (the outbox relay; its repositories write in single statements). */
@Injectable()
export class CallsMediaTransactions extends Transactions<Tx> {
  constructor(prisma: CallsMediaPrisma) {
    super(prisma);
  }
}
