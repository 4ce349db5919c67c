import { Injectable } from '@nestjs/common';
import { sqlExecute, sqlRows } from '@switchboard/persistence';
import { sql, type Selectable } from 'kysely';
import type { WebhookAttempt, WebhookDelivery } from '../generated/kysely/database';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';
import {
  INTERRUPTED,
  IN_PROGRESS,
  type AttemptClaim,
  type AttemptOutcome,
  type AttemptRecord,
  type DeliveryStatus,
  type DeliveryStore,
  type DeliveryUpdate,
  type NewDelivery,
} from './delivery-store.port';

/**
 * Deliveries and attempts in webhook-dispatcher's own database. Each write of the delivery path is one SQL
 * statement (data-modifying CTEs: one round trip, one transaction, all or nothing), as every delivery makes them.
 * Instants are sent as ISO strings cast to timestamptz, so they mean the same whatever the session's time zone.
 */
@Injectable()
export class DeliveriesRepository implements DeliveryStore {
  constructor(private readonly prisma: WebhookDispatcherPrisma) {}

  async close(delivery: NewDelivery, status: Exclude<DeliveryStatus, 'pending'>): Promise<void> {
    await sqlExecute(
      this.prisma,
      sql`
      INSERT INTO webhook_deliveries AS d (event_id, event_type, call_sid, number_id, account_id, body, status)
      VALUES (${delivery.event_id}, ${delivery.event_type}, ${delivery.call_sid}, ${delivery.number_id}, ${delivery.account_id}, ${delivery.body}, ${status})
      ON CONFLICT (event_id) DO UPDATE SET status = EXCLUDED.status, lease_until = NULL, updated_at = now()
       WHERE d.status = 'pending'`,
    );
  }

  async claimAttempt({
    delivery,
    url,
    now,
    leaseUntil,
  }: {
    delivery: NewDelivery;
    url: string;
    now: Date;
    leaseUntil: Date;
  }): Promise<AttemptClaim> {
    const at = now.toISOString();
    // The upsert takes the row lock: a concurrent claim of the same event waits for this one to commit, then finds
    // the lease taken and returns no row. The attempt row is written only when the lease was taken.
    const [claimed] = await sqlRows(
      this.prisma,
      sql<
        Pick<Selectable<WebhookAttempt>, 'id' | 'attempt'> &
          Pick<Selectable<WebhookDelivery>, 'attempt_base'> & { interrupted: number }
      >`
      WITH delivery AS (
        INSERT INTO webhook_deliveries AS d (event_id, event_type, call_sid, number_id, account_id, body, lease_until)
        VALUES (${delivery.event_id}, ${delivery.event_type}, ${delivery.call_sid}, ${delivery.number_id}, ${delivery.account_id}, ${delivery.body},
                ${leaseUntil.toISOString()}::timestamptz)
        ON CONFLICT (event_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, body = COALESCE(d.body, EXCLUDED.body), updated_at = now()
         WHERE d.status = 'pending'
           AND (d.lease_until IS NULL OR d.lease_until <= ${at}::timestamptz)
           AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= ${at}::timestamptz)
        RETURNING d.event_id, d.call_sid, d.number_id, d.attempts, d.attempt_base
      ),
      interrupted AS (
        UPDATE webhook_attempts SET finished_at = ${at}::timestamptz, error = ${INTERRUPTED}
         WHERE event_id = (SELECT event_id FROM delivery) AND finished_at IS NULL
        RETURNING id
      ),
      attempt AS (
        INSERT INTO webhook_attempts (event_id, call_sid, number_id, url, attempt, error, attempted_at)
        SELECT event_id, call_sid, number_id, ${url}, attempts + 1, ${IN_PROGRESS}, ${at}::timestamptz FROM delivery
        RETURNING id, attempt
      )
      SELECT attempt.id, attempt.attempt, (SELECT attempt_base FROM delivery) AS attempt_base, (SELECT count(*)::int FROM interrupted) AS interrupted
        FROM attempt`,
    );
    if (claimed) {
      return {
        kind: 'claimed',
        attemptId: claimed.id,
        attempt: claimed.attempt,
        attemptBase: claimed.attempt_base,
        leaseUntil,
        interrupted: claimed.interrupted,
      };
    }

    // Not claimed: why is read afresh (a concurrent claim's commit is visible to this new statement).
    const current = await this.prisma.webhookDelivery.findUnique({
      where: { event_id: delivery.event_id },
      select: { status: true, lease_until: true, next_attempt_at: true },
    });
    if (!current) return { kind: 'busy', until: now };
    if (current.status !== 'pending') return { kind: 'closed', status: current.status as DeliveryStatus };
    if (current.lease_until && current.lease_until > now) return { kind: 'busy', until: current.lease_until };
    if (current.next_attempt_at && current.next_attempt_at > now)
      return { kind: 'waiting', until: current.next_attempt_at };
    // The lease was given back between the two statements: try again shortly.
    return { kind: 'busy', until: now };
  }

  async finishAttempt(
    claim: { eventId: string; attemptId: bigint; leaseUntil: Date },
    outcome: AttemptOutcome,
    update: DeliveryUpdate,
  ): Promise<boolean> {
    // The attempt's outcome is written whether or not the lease is still held; the delivery only while it is.
    const count = await sqlExecute(
      this.prisma,
      sql`
      WITH attempt AS (
        UPDATE webhook_attempts
           SET status_code = ${outcome.status_code}::int, error = ${outcome.error}, finished_at = ${outcome.finished_at.toISOString()}::timestamptz,
               duration_ms = ${outcome.duration_ms}::int
         WHERE id = ${claim.attemptId}::bigint
      )
      UPDATE webhook_deliveries
         SET status = ${update.status}, attempts = ${update.attempts}::int, next_attempt_at = ${update.next_attempt_at?.toISOString() ?? null}::timestamptz,
             lease_until = NULL, updated_at = now()
       WHERE event_id = ${claim.eventId} AND status = 'pending' AND lease_until = ${claim.leaseUntil.toISOString()}::timestamptz`,
    );
    return count === 1;
  }

  async listAttempts(numberId: string, limit: number): Promise<AttemptRecord[]> {
    return this.prisma.webhookAttempt.findMany({
      where: { number_id: numberId },
      orderBy: [{ attempted_at: 'desc' }, { id: 'desc' }],
      take: limit,
      select: {
        event_id: true,
        call_sid: true,
        number_id: true,
        url: true,
        attempt: true,
        status_code: true,
        error: true,
        attempted_at: true,
      },
    });
  }
}
