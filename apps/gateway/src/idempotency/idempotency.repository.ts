import { Injectable } from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import type { IdempotencyRecord } from '../generated/kysely/database';
import { Prisma } from '../generated/prisma/client';
import { GatewayPrisma } from '../prisma/gateway-prisma';

export type IdempotencyRow = Selectable<IdempotencyRecord>;

/** A stored answer's body (JSON). */
export type StoredBody = Prisma.InputJsonValue;

export interface IdempotencyScope {
  accountId: string;
  key: string;
}

@Injectable()
export class IdempotencyRepository {
  private calls = 0;

  constructor(private readonly prisma: GatewayPrisma) {}

  /** Claims the key for a new request; false when a record for it already exists. */
  async claim(
    scope: IdempotencyScope,
    request: { method: string; path: string; hash: string },
    at: Date,
  ): Promise<boolean> {
    const rows = await this.prisma
      .$kysely()
      .insertInto('idempotency_records')
      .values({
        account_id: scope.accountId,
        key: scope.key,
        method: request.method,
        path: request.path,
        request_hash: request.hash,
        created_at: at,
      })
      .onConflict((conflict) => conflict.columns(['account_id', 'key']).doNothing())
      .returning('key')
      .execute();
    return rows.length === 1;
  }

  find(scope: IdempotencyScope): Promise<IdempotencyRow | null> {
    return this.prisma.idempotencyRecord.findUnique({
      where: { account_id_key: { account_id: scope.accountId, key: scope.key } },
    });
  }

  /**
   * Takes over a record that is expired or was abandoned in flight, if it is still the one that was read (its
   * `created_at` is the claim's token): the new claim starts now, as a new request.
   */
  async takeOver(
    scope: IdempotencyScope,
    seen: Date,
    request: { method: string; path: string; hash: string },
    at: Date,
  ): Promise<boolean> {
    const result = await this.prisma.idempotencyRecord.updateMany({
      where: { account_id: scope.accountId, key: scope.key, created_at: seen },
      data: {
        method: request.method,
        path: request.path,
        request_hash: request.hash,
        response_status: null,
        response_body: Prisma.DbNull,
        created_at: at,
      },
    });
    return result.count === 1;
  }

  /** Stores the answer of the claim made at `claimedAt`. */
  async complete(scope: IdempotencyScope, claimedAt: Date, status: number, body: StoredBody): Promise<void> {
    await this.prisma.idempotencyRecord.updateMany({
      where: { account_id: scope.accountId, key: scope.key, created_at: claimedAt },
      data: { response_status: status, response_body: body },
    });
  }

  /** Forgets the claim made at `claimedAt` (the request failed and changed nothing: a retry runs again). */
  async release(scope: IdempotencyScope, claimedAt: Date): Promise<void> {
    await this.prisma.idempotencyRecord.deleteMany({
      where: { account_id: scope.accountId, key: scope.key, created_at: claimedAt, response_status: null },
    });
  }

  /** Now and then, removes a batch of records past their retention. */
  async sweep(olderThan: Date): Promise<void> {
    this.calls += 1;
    if (this.calls % 100 !== 1) return;
    // `ctid` is a system column, outside the generated table types.
    const db = this.prisma.$kysely();
    await db
      .deleteFrom('idempotency_records')
      .where(
        sql.ref('ctid'),
        'in',
        db
          .selectFrom('idempotency_records')
          .select(sql.ref('ctid').as('ctid'))
          .where('created_at', '<', olderThan)
          .limit(500),
      )
      .execute();
  }
}
