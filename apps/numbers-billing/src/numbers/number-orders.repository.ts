import { Injectable } from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import type { Account, NumberOrder } from '../generated/kysely/database';
import { Prisma } from '../generated/prisma/client';
import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';

/** The columns of a `number_orders` row as this build's schema has them, named rather than `*` (see `AGENT_COLUMNS`). */
const ORDER_COLUMNS = Object.values(Prisma.NumberOrderScalarFieldEnum);

export type OrderRecord = Selectable<NumberOrder>;

/**
 * Provisioning orders. A pending order holds its price against the balance, the number limit and the velocity
 * limit until it completes or fails; one left pending longer than the lease (a crash between buying and
 * recording) stops holding and may be taken over by a retry with the same Idempotency-Key.
 */
export const ORDER_LEASE_MS = 2 * 60_000;

@Injectable()
export class NumberOrdersRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  async lockByKey(tx: Tx, accountId: string, idempotencyKey: string): Promise<OrderRecord | null> {
    const rows = await tx
      .$kysely()
      .selectFrom('number_orders')
      .select(ORDER_COLUMNS)
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', idempotencyKey)
      .forUpdate()
      .execute();
    return rows[0] ?? null;
  }

  /** The orders among `ids` (purchase references at the provider: ours are order ids; any other matches none). */
  async findByIds(client: Tx, ids: string[]): Promise<OrderRecord[]> {
    if (ids.length === 0) return [];
    return client
      .$kysely()
      .selectFrom('number_orders')
      .select(ORDER_COLUMNS)
      .where(sql<boolean>`id::text = ANY(${ids}::text[])`)
      .execute();
  }

  async lock(tx: Tx, id: string): Promise<OrderRecord | null> {
    const rows = await tx
      .$kysely()
      .selectFrom('number_orders')
      .select(ORDER_COLUMNS)
      .where('id', '=', sql<string>`${id}::uuid`)
      .forUpdate()
      .execute();
    return rows[0] ?? null;
  }

  /** Holds of the account's pending orders within their lease, other than `exceptId`. */
  async pendingHolds(
    tx: Tx,
    accountId: string,
    now: Date,
    exceptId: string,
  ): Promise<{ count: number; millicents: bigint }> {
    const [row] = (
      await sql<{ count: bigint; millicents: Selectable<NumberOrder>['hold_millicents'] }>`
      SELECT COUNT(*)::bigint AS count, COALESCE(SUM(hold_millicents), 0)::bigint AS millicents FROM number_orders
       WHERE account_id = ${accountId} AND status = 'pending' AND id <> ${exceptId}::uuid
         AND updated_at > ${new Date(now.getTime() - ORDER_LEASE_MS)}`.execute(tx.$kysely())
    ).rows;
    return { count: Number(row.count), millicents: row.millicents };
  }

  /**
   * The account's standing against the provisioning limits, without locks, read by one statement (so from one
   * snapshot: an order completing meanwhile is counted once, as a hold or as a number, never twice or not at all).
   * Counts as `countHeld`, `countProvisionedSince` and `pendingHolds` do. Null when the account does not exist or
   * already has an order with `idempotencyKey` (its answer may be a replay, not a refusal).
   */
  async standing(
    accountId: string,
    now: Date,
    velocitySince: Date,
    idempotencyKey: string | null,
  ): Promise<ProvisioningStanding | null> {
    const rows = (
      await sql<StandingRow>`
      SELECT a.balance_millicents, a.number_limit,
             (SELECT COUNT(*) FROM numbers n WHERE n.account_id = a.id AND n.status IN ('active', 'past_due'))::bigint AS held,
             (SELECT COUNT(*) FROM numbers n WHERE n.account_id = a.id AND n.created_at >= ${velocitySince})::bigint AS recent,
             h.hold_count, h.hold_millicents
        FROM accounts a
       CROSS JOIN LATERAL (
             SELECT COUNT(*)::bigint AS hold_count, COALESCE(SUM(o.hold_millicents), 0)::bigint AS hold_millicents FROM number_orders o
              WHERE o.account_id = a.id AND o.status = 'pending' AND o.updated_at > ${new Date(now.getTime() - ORDER_LEASE_MS)}) h
       WHERE a.id = ${accountId}
         AND NOT EXISTS (SELECT 1 FROM number_orders k WHERE k.account_id = a.id AND k.idempotency_key = ${idempotencyKey})`.execute(
        this.prisma.$kysely(),
      )
    ).rows;
    const row = rows[0];
    if (!row) return null;
    return {
      balance_millicents: row.balance_millicents,
      number_limit: row.number_limit,
      held: Number(row.held),
      recent: Number(row.recent),
      holds: { count: Number(row.hold_count), millicents: row.hold_millicents },
    };
  }

  async create(
    tx: Tx,
    order: Omit<
      OrderRecord,
      'status' | 'number_id' | 'failure_code' | 'created_at' | 'updated_at' | 'webhook_events' | 'max_call_minutes'
    > &
      Partial<Pick<OrderRecord, 'webhook_events' | 'max_call_minutes'>>,
    now: Date,
  ): Promise<void> {
    await tx.numberOrder.create({ data: { ...order, status: 'pending', created_at: now, updated_at: now } });
  }

  /** Pending again (a retry of a failed order, or a takeover of an abandoned one): its lease starts now. */
  async renew(tx: Tx, id: string, now: Date): Promise<void> {
    await tx.numberOrder.update({ where: { id }, data: { status: 'pending', failure_code: null, updated_at: now } });
  }

  async complete(tx: Tx, id: string, numberId: bigint): Promise<void> {
    await tx.numberOrder.update({ where: { id }, data: { status: 'completed', number_id: numberId } });
  }

  /** Fails a pending order: in the caller's transaction when given one, else on its own. */
  async fail(id: string, code: string, tx: Tx = this.prisma): Promise<void> {
    await tx.numberOrder.updateMany({
      where: { id, status: 'pending' },
      data: { status: 'failed', failure_code: code },
    });
  }
}

/** `standing`'s row: the account's columns and the counts, as the statement returns them. */
type StandingRow = Pick<Selectable<Account>, 'balance_millicents' | 'number_limit'> & {
  held: bigint;
  recent: bigint;
  hold_count: bigint;
  hold_millicents: Selectable<NumberOrder>['hold_millicents'];
};

/** What the provisioning limits are judged on; see `ProvisioningService.begin`. */
export interface ProvisioningStanding {
  balance_millicents: bigint;
  number_limit: number;
  /** Active and past_due numbers. */
  held: number;
  /** Numbers provisioned in the velocity window. */
  recent: number;
  /** Pending orders within their lease (other than the request's own). */
  holds: { count: number; millicents: bigint };
}

export function isLeaseLive(order: OrderRecord, now: Date): boolean {
  return order.updated_at.getTime() > now.getTime() - ORDER_LEASE_MS;
}

/** Whole seconds until a pending order's lease ends (at least 1): the `Retry-After` of a retry refused meanwhile. */
export function leaseSecondsLeft(order: OrderRecord, now: Date): number {
  return Math.max(1, Math.ceil((order.updated_at.getTime() + ORDER_LEASE_MS - now.getTime()) / 1000));
}
