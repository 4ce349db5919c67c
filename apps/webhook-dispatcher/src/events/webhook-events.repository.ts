import { Injectable } from '@nestjs/common';
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { DB, WebhookAttempt, WebhookDelivery } from '../generated/kysely/database';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';
import type { DeliveryStatus, NewDelivery } from '../deliveries/delivery-store.port';

export type EventRow = Pick<
  Selectable<WebhookDelivery>,
  'event_id' | 'event_type' | 'number_id' | 'next_attempt_at' | 'created_at'
> & {
  status: DeliveryStatus;
  redeliverable: boolean;
};

export type EventAttemptRow = Pick<
  Selectable<WebhookAttempt>,
  'event_id' | 'attempt' | 'url' | 'status_code' | 'error' | 'duration_ms' | 'attempted_at'
>;

/** A delivery the sweeper sends: no JetStream message drives it (a redelivery, a recovery). */
export type DetachedDelivery = NewDelivery & { body: string };

/** The columns of an event: `event_id, event_type, number_id, status, next_attempt_at, body IS NOT NULL AS redeliverable, created_at`. */
function eventColumns(eb: ExpressionBuilder<DB, 'webhook_deliveries'>) {
  return [
    'event_id',
    'event_type',
    'number_id',
    'status',
    'next_attempt_at',
    eb('body', 'is not', null).as('redeliverable'),
    'created_at',
  ] as const;
}

/** A number's events, newest first. */
function eventsOf(db: Kysely<DB>, accountId: string, numberId: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select(eventColumns)
    .where('account_id', '=', accountId)
    .where('number_id', '=', numberId)
    .orderBy('created_at', 'desc')
    .orderBy('event_id', 'desc')
    .limit(limit)
    .$narrowType<{ status: DeliveryStatus; redeliverable: boolean }>();
}

/** A new round of attempts, driven by the sweeper from `now`: `SET status = 'pending', attempt_base = attempts, …`. */
function queueAgain(db: Kysely<DB>, now: Date) {
  return db.updateTable('webhook_deliveries').set((eb) => ({
    status: sql.lit('pending'),
    attempt_base: eb.ref('attempts'),
    detached: sql.lit(true),
    next_attempt_at: sql<Date>`${now.toISOString()}::timestamptz`,
    lease_until: sql.lit(null),
    updated_at: sql<Date>`now()`,
  }));
}

/**
 * The integrator's view of a number's deliveries and the writes that send events again
 * (docs/adr/0075-webhook-delivery.md). Every read and write names the account and the number, so one account
 * never reaches another's events even if the gateway's ownership check were skipped.
 */
@Injectable()
export class WebhookEventsRepository {
  constructor(private readonly prisma: WebhookDispatcherPrisma) {}

  /** A page of a number's events, newest first, after the event `after` (undefined when `after` is not one of them). */
  async page(accountId: string, numberId: string, limit: number, after?: string): Promise<EventRow[] | undefined> {
    if (after === undefined) return eventsOf(this.prisma.$kysely(), accountId, numberId, limit).execute();
    const [cursor] = await this.prisma
      .$kysely()
      .selectFrom('webhook_deliveries')
      .select('created_at')
      .where('event_id', '=', after)
      .where('account_id', '=', accountId)
      .where('number_id', '=', numberId)
      .execute();
    if (!cursor) return undefined;
    return eventsOf(this.prisma.$kysely(), accountId, numberId, limit)
      .where(sql<boolean>`(created_at, event_id) < (${cursor.created_at.toISOString()}::timestamptz, ${after})`)
      .execute();
  }

  async find(accountId: string, numberId: string, eventId: string): Promise<EventRow | undefined> {
    const [row] = await this.prisma
      .$kysely()
      .selectFrom('webhook_deliveries')
      .select(eventColumns)
      .where('event_id', '=', eventId)
      .where('account_id', '=', accountId)
      .where('number_id', '=', numberId)
      .$narrowType<{ status: DeliveryStatus; redeliverable: boolean }>()
      .execute();
    return row;
  }

  /** The attempts of these events, oldest first. */
  attemptsOf(eventIds: string[]): Promise<EventAttemptRow[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.prisma.webhookAttempt.findMany({
      where: { event_id: { in: eventIds } },
      orderBy: { id: 'asc' },
      select: {
        event_id: true,
        attempt: true,
        url: true,
        status_code: true,
        error: true,
        duration_ms: true,
        attempted_at: true,
      },
    });
  }

  /**
   * Queues one event to be sent again: a new round of attempts, driven by the sweeper. An event already pending
   * (queued, or retrying) is left as it is, so two redeliveries at once send it once. Returns whether it was queued.
   */
  async redeliver(accountId: string, numberId: string, eventId: string, now: Date): Promise<boolean> {
    const { numUpdatedRows } = await queueAgain(this.prisma.$kysely(), now)
      .where('event_id', '=', eventId)
      .where('account_id', '=', accountId)
      .where('number_id', '=', numberId)
      .where('status', '<>', sql.lit('pending'))
      .where('body', 'is not', null)
      .executeTakeFirstOrThrow();
    return numUpdatedRows === 1n;
  }

  /** Queues every failed (or refused) event of a number created since `since`; test events are left out. */
  async recover(accountId: string, numberId: string, since: Date, now: Date): Promise<number> {
    const { numUpdatedRows } = await queueAgain(this.prisma.$kysely(), now)
      .where('account_id', '=', accountId)
      .where('number_id', '=', numberId)
      .where('status', 'in', [sql.lit('failed'), sql.lit('refused')])
      .where('body', 'is not', null)
      .where('event_type', '<>', sql.lit('webhook.test'))
      .where('created_at', '>=', sql<Date>`${since.toISOString()}::timestamptz`)
      .executeTakeFirstOrThrow();
    return Number(numUpdatedRows);
  }

  /** Detached deliveries due now, oldest due first. */
  due(now: Date, limit: number): Promise<DetachedDelivery[]> {
    const at = sql<Date>`${now.toISOString()}::timestamptz`;
    return this.prisma
      .$kysely()
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'event_type', 'call_sid', 'number_id', 'account_id', 'body'])
      .where((eb) => eb.ref('detached'))
      .where('status', '=', sql.lit('pending'))
      .where('body', 'is not', null)
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', at)]))
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
      .orderBy('next_attempt_at', (order) => order.nullsFirst())
      .limit(sql<number>`${limit}::int`)
      .$narrowType<{ body: string }>()
      .execute();
  }
}
