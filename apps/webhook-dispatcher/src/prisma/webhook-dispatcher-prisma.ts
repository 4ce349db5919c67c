import { Injectable } from '@nestjs/common';
import { extendedClientClass, kyselyExtension, Transactions, type TransactionClientOf } from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/** webhook-dispatcher's Prisma client, with `$kysely()` for its hand-written statements (ADR 0070); injected by this class. */
export const WebhookDispatcherPrisma = extendedClientClass((options: Prisma.PrismaClientOptions) =>
  new PrismaClient(options).$extends(kyselyExtension<DB>()),
);
export type WebhookDispatcherPrisma = InstanceType<typeof WebhookDispatcherPrisma>;

/** The client inside an interactive transaction, `$kysely()` included. */
export type Tx = TransactionClientOf<WebhookDispatcherPrisma>;

/** webhook-dispatcher's transactions: what services open, handing `tx` to repositories (they do not hold the client). */
@Injectable()
export class WebhookDispatcherTransactions extends Transactions<Tx> {
  constructor(prisma: WebhookDispatcherPrisma) {
    super(prisma);
  }
}
