import { Injectable } from '@nestjs/common';
import { extendedClientClass, kyselyExtension, Transactions, type TransactionClientOf } from '@switchboard/persistence';
import type { DB } from '../generated/kysely/database';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/**
 * The gateway's Prisma client, with `$kysely()` for its hand-written statements (ADR 0070). Injected by this class;
 * built once per process (see bootstrap) so the public and operator servers share one connection pool (and, on
 * PGlite, one embedded database).
 */
export const GatewayPrisma = extendedClientClass((options: Prisma.PrismaClientOptions) =>
  new PrismaClient(options).$extends(kyselyExtension<DB>()),
);
export type GatewayPrisma = InstanceType<typeof GatewayPrisma>;

/** The client inside an interactive transaction, `$kysely()` included. */
export type Tx = TransactionClientOf<GatewayPrisma>;

/** The gateway's transactions: the one way its code opens one, handing `tx` to the statements inside it. */
@Injectable()
export class GatewayTransactions extends Transactions<Tx> {
  constructor(prisma: GatewayPrisma) {
    super(prisma);
  }
}
