import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client';
import { GatewayPrisma } from '../prisma/gateway-prisma';

export interface IdempotencyRow {
  account_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
  created_at: Date;
}

export interface IdempotencyScope {
  accountId: string;
  key: string;
}

@Injectable()
export class IdempotencyRepository {
  private calls = 0;

  constructor(private readonly prisma: GatewayPrisma) {}

  /** Claims the key for a new request; false when a record for it already exists. */
  async claim(scope: IdempotencyScope, request: { method: string; path: string; hash: string }, at: Date): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<unknown[]>`
      INSERT INTO idempotency_records (account_id, key, method, path, request_hash, created_at)
      VALUES (${scope.accountId}, ${scope.key}, ${request.method}, ${request.path}, ${request.hash}, ${at})
      ON CONFLICT (account_id, key) DO NOTHING RETURNING key`;
    return rows.length === 1;
  }

  find(scope: IdempotencyScope): Promise<IdempotencyRow | null> {
    return this.prisma.idempotencyRecord.findUnique({ where: { account_id_key: { account_id: scope.accountId, key: scope.key } } });
  }

  /**
   * Takes over a record that is expired or was abandoned in flight, if it is still the one that was read (its
   * `created_at` is the claim's token): the new claim starts now, as a new request.
   */
  async takeOver(scope: IdempotencyScope, seen: Date, request: { method: string; path: string; hash: string }, at: Date): Promise<boolean> {
    const result = await this.prisma.idempotencyRecord.updateMany({
      where: { account_id: scope.accountId, key: scope.key, created_at: seen },
      data: { method: request.method, path: request.path, request_hash: request.hash, response_status: null, response_body: Prisma.DbNull, created_at: at },
    });
    return result.count === 1;
  }

  /** Stores the answer of the claim made at `claimedAt`. */
  async complete(scope: IdempotencyScope, claimedAt: Date, status: number, body: Prisma.InputJsonValue): Promise<void> {
    await this.prisma.idempotencyRecord.updateMany({
      where: { account_id: scope.accountId, key: scope.key, created_at: claimedAt },
      data: { response_status: status, response_body: body },
    });
  }

  /** Forgets the claim made at `claimedAt` (the request failed and changed nothing: a retry runs again). */
  async release(scope: IdempotencyScope, claimedAt: Date): Promise<void> {
    await this.prisma.idempotencyRecord.deleteMany({ where: { account_id: scope.accountId, key: scope.key, created_at: claimedAt, response_status: null } });
  }

  /** Now and then, removes a batch of records past their retention. */
  async sweep(olderThan: Date): Promise<void> {
    this.calls += 1;
    if (this.calls % 100 !== 1) return;
    await this.prisma.$executeRaw`
      DELETE FROM idempotency_records WHERE ctid IN (SELECT ctid FROM idempotency_records WHERE created_at < ${olderThan} LIMIT 500)`;
  }
}
