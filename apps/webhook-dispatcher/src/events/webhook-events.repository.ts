import { Injectable } from '@nestjs/common';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';
import type { DeliveryStatus, NewDelivery } from '../deliveries/delivery-store.port';

export interface EventRow {
  event_id: string;
  event_type: string;
  number_id: string;
  status: DeliveryStatus;
  next_attempt_at: Date | null;
  redeliverable: boolean;
  created_at: Date;
}

export interface EventAttemptRow {
  event_id: string;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  attempted_at: Date;
}

/** A delivery the sweeper sends: no JetStream message drives it (a redelivery, a recovery). */
export type DetachedDelivery = NewDelivery & { body: string };

const EVENT_COLUMNS = 'event_id, event_type, number_id, status, next_attempt_at, body IS NOT NULL AS redeliverable, created_at';

/**
 * The integrator's view of a number's deliveries and the writes that send events again
 * (docs/adr/0073-webhook-redelivery.md). Every read and write names the account and the number, so one account
 * never reaches another's events even if the gateway's ownership check were skipped.
 */
@Injectable()
export class WebhookEventsRepository {
  constructor(private readonly prisma: WebhookDispatcherPrisma) {}

  /** A page of a number's events, newest first, after the event `after` (undefined when `after` is not one of them). */
  async page(accountId: string, numberId: string, limit: number, after?: string): Promise<EventRow[] | undefined> {
    if (after === undefined) {
      return this.prisma.$queryRawUnsafe<EventRow[]>(
        `SELECT ${EVENT_COLUMNS} FROM webhook_deliveries WHERE account_id = $1 AND number_id = $2
          ORDER BY created_at DESC, event_id DESC LIMIT $3`,
        accountId,
        numberId,
        limit,
      );
    }
    const [cursor] = await this.prisma.$queryRaw<{ created_at: Date }[]>`
      SELECT created_at FROM webhook_deliveries WHERE event_id = ${after} AND account_id = ${accountId} AND number_id = ${numberId}`;
    if (!cursor) return undefined;
    return this.prisma.$queryRawUnsafe<EventRow[]>(
      `SELECT ${EVENT_COLUMNS} FROM webhook_deliveries WHERE account_id = $1 AND number_id = $2
          AND (created_at, event_id) < ($3::timestamptz, $4)
        ORDER BY created_at DESC, event_id DESC LIMIT $5`,
      accountId,
      numberId,
      cursor.created_at.toISOString(),
      after,
      limit,
    );
  }

  async find(accountId: string, numberId: string, eventId: string): Promise<EventRow | undefined> {
    const [row] = await this.prisma.$queryRawUnsafe<EventRow[]>(
      `SELECT ${EVENT_COLUMNS} FROM webhook_deliveries WHERE event_id = $1 AND account_id = $2 AND number_id = $3`,
      eventId,
      accountId,
      numberId,
    );
    return row;
  }

  /** The attempts of these events, oldest first. */
  attemptsOf(eventIds: string[]): Promise<EventAttemptRow[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.prisma.webhookAttempt.findMany({
      where: { event_id: { in: eventIds } },
      orderBy: { id: 'asc' },
      select: { event_id: true, attempt: true, url: true, status_code: true, error: true, duration_ms: true, attempted_at: true },
    });
  }

  /**
   * Queues one event to be sent again: a new round of attempts, driven by the sweeper. An event already pending
   * (queued, or retrying) is left as it is, so two redeliveries at once send it once. Returns whether it was queued.
   */
  async redeliver(accountId: string, numberId: string, eventId: string, now: Date): Promise<boolean> {
    const count = await this.prisma.$executeRaw`
      UPDATE webhook_deliveries
         SET status = 'pending', attempt_base = attempts, detached = true, next_attempt_at = ${now.toISOString()}::timestamptz,
             lease_until = NULL, updated_at = now()
       WHERE event_id = ${eventId} AND account_id = ${accountId} AND number_id = ${numberId}
         AND status <> 'pending' AND body IS NOT NULL`;
    return count === 1;
  }

  /** Queues every failed (or refused) event of a number created since `since`; test events are left out. */
  recover(accountId: string, numberId: string, since: Date, now: Date): Promise<number> {
    return this.prisma.$executeRaw`
      UPDATE webhook_deliveries
         SET status = 'pending', attempt_base = attempts, detached = true, next_attempt_at = ${now.toISOString()}::timestamptz,
             lease_until = NULL, updated_at = now()
       WHERE account_id = ${accountId} AND number_id = ${numberId} AND status IN ('failed', 'refused')
         AND body IS NOT NULL AND event_type <> 'webhook.test' AND created_at >= ${since.toISOString()}::timestamptz`;
  }

  /** Detached deliveries due now, oldest due first. */
  due(now: Date, limit: number): Promise<DetachedDelivery[]> {
    return this.prisma.$queryRaw<DetachedDelivery[]>`
      SELECT event_id, event_type, call_sid, number_id, account_id, body FROM webhook_deliveries
       WHERE detached AND status = 'pending' AND body IS NOT NULL
         AND (next_attempt_at IS NULL OR next_attempt_at <= ${now.toISOString()}::timestamptz)
         AND (lease_until IS NULL OR lease_until <= ${now.toISOString()}::timestamptz)
       ORDER BY next_attempt_at NULLS FIRST LIMIT ${limit}::int`;
  }
}
