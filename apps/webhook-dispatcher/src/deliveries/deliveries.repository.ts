import { Inject, Injectable } from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import type { WebhookAttempt, WebhookDelivery } from '../generated/kysely/database';
import { randomUUID } from 'node:crypto';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';
import {
  INTERRUPTED,
  IN_PROGRESS,
  type AttemptClaim,
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimHeld,
  type ClaimRequest,
  type DeliveryStatus,
  type DeliveryStore,
  type DeliveryUpdate,
  type FinishedAttempt,
  type HealthCount,
  type NewDelivery,
} from './delivery-store.port';
import type { EndpointHealthRow } from '../endpoints/endpoint-health.port';
import { endpointDisabledSql, healthCountSql } from '../endpoints/webhook-endpoints.repository';

/**
 * Deliveries and attempts in webhook-dispatcher's own database. Each write of the delivery path is one SQL
 * statement (data-modifying CTEs: one round trip, one transaction, all or nothing), as every delivery makes them: an
 * attempt is a claim and a finish, nothing else; the receiver host's shared slot (ADR 0075, the `webhook_host_slots` table) is taken by the claim and given back by the finish.
 * Instants are sent as ISO strings cast to timestamptz, so they mean the same whatever the session's time zone.
 */
@Injectable()
export class DeliveriesRepository implements DeliveryStore {
  /** This process, as the holder of host slots. */
  private readonly holder = randomUUID();
  /** Slots per receiver host shared by every replica (`WEBHOOK_HOST_CONCURRENCY`, ADR 0075). */
  private readonly hostConcurrency: number;

  constructor(
    private readonly prisma: WebhookDispatcherPrisma,
    @Inject(DISPATCHER_CONFIG) config: Pick<WebhookDispatcherConfig, 'hostConcurrency'>,
  ) {
    this.hostConcurrency = config.hostConcurrency;
  }

  async close(delivery: NewDelivery, status: Exclude<DeliveryStatus, 'pending'>): Promise<void> {
    await sql`
      INSERT INTO webhook_deliveries AS d (event_id, event_type, call_sid, number_id, account_id, body, status)
      VALUES (${delivery.event_id}, ${delivery.event_type}, ${delivery.call_sid}, ${delivery.number_id}, ${delivery.account_id}, ${delivery.body}, ${status})
      ON CONFLICT (event_id) DO UPDATE SET status = EXCLUDED.status, lease_until = NULL, updated_at = now()
       WHERE d.status = 'pending'`.execute(this.prisma.$kysely());
  }

  async closeBegun(eventId: string, status: Exclude<DeliveryStatus, 'pending'>): Promise<void> {
    await sql`
      UPDATE webhook_deliveries SET status = ${status}, lease_until = NULL, next_attempt_at = NULL, updated_at = now()
       WHERE event_id = ${eventId} AND status = 'pending'`.execute(this.prisma.$kysely());
  }

  async claimAttempt({
    delivery,
    url,
    host,
    now,
    leaseUntil,
    pauseIfDisabled = false,
  }: ClaimRequest): Promise<AttemptClaim> {
    const at = now.toISOString();
    const lease = leaseUntil.toISOString();
    const disabled = pauseIfDisabled ? endpointDisabledSql(delivery.number_id) : sql<boolean>`false`;
    // One statement: a free slot of the host (ADR 0075: one no live lease holds; two replicas picking the same one
    // meet on the primary key and the later gets none), then, only with the slot, the delivery's lease (the upsert
    // takes the row lock: a concurrent claim of the same event waits, then finds the lease taken) and the attempt
    // row. Nothing is taken while the endpoint is disabled.
    const [claimed] = (
      await sql<{
        slot: number | null;
        disabled: boolean;
        id: Selectable<WebhookAttempt>['id'] | null;
        attempt: number | null;
        attempt_base: number | null;
        interrupted: number;
      }>`
      WITH free AS (
        SELECT s AS slot FROM generate_series(0, ${this.hostConcurrency - 1}::int) AS s
         WHERE NOT ${disabled}
           AND NOT EXISTS (SELECT 1 FROM webhook_host_slots h WHERE h.host = ${host} AND h.slot = s AND h.lease_until > now())
         ORDER BY random() LIMIT 1
      ),
      slot AS (
        INSERT INTO webhook_host_slots AS h (host, slot, holder, lease_until)
        SELECT ${host}, slot, ${this.holder}, ${lease}::timestamptz FROM free
        ON CONFLICT (host, slot) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
         WHERE h.lease_until <= now()
        RETURNING h.slot
      ),
      delivery AS (
        INSERT INTO webhook_deliveries AS d (event_id, event_type, call_sid, number_id, account_id, body, lease_until)
        SELECT ${delivery.event_id}, ${delivery.event_type}, ${delivery.call_sid}, ${delivery.number_id}, ${delivery.account_id}, ${delivery.body}::text,
               ${lease}::timestamptz
         WHERE EXISTS (SELECT 1 FROM slot)
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
      SELECT (SELECT slot FROM slot) AS slot, ${disabled} AS disabled, attempt.id, attempt.attempt,
             (SELECT attempt_base FROM delivery) AS attempt_base, (SELECT count(*)::int FROM interrupted) AS interrupted
        FROM (SELECT 1) AS one LEFT JOIN attempt ON true`.execute(this.prisma.$kysely())
    ).rows;
    if (claimed.id !== null && claimed.slot !== null) {
      return {
        kind: 'claimed',
        attemptId: claimed.id,
        attempt: claimed.attempt!,
        attemptBase: claimed.attempt_base!,
        leaseUntil,
        interrupted: claimed.interrupted,
        slot: claimed.slot,
      };
    }
    if (claimed.slot === null && !claimed.disabled) return { kind: 'host_busy' };

    // Not claimed: why is read afresh (a concurrent claim's commit is visible to this new statement), and the slot
    // taken for nothing is given back in the same statement.
    const taken = claimed.slot;
    const freed = taken === null ? sql`` : sql`WITH freed AS (${this.giveBackSql({ host, slot: taken, leaseUntil })}) `;
    const [current] = (
      await sql<
        Pick<Selectable<WebhookDelivery>, 'status' | 'lease_until' | 'next_attempt_at'> & { disabled: boolean }
      >`
      ${freed}SELECT d.status, d.lease_until, d.next_attempt_at, ${disabled} AS disabled
        FROM (SELECT 1) AS one LEFT JOIN webhook_deliveries d ON d.event_id = ${delivery.event_id}`.execute(
        this.prisma.$kysely(),
      )
    ).rows;
    if (current.status !== null && current.status !== 'pending')
      return { kind: 'closed', status: current.status as DeliveryStatus };
    if (current.disabled) return { kind: 'paused' };
    if (current.status === null) return { kind: 'busy', until: now };
    if (current.lease_until && current.lease_until > now) return { kind: 'busy', until: current.lease_until };
    if (current.next_attempt_at && current.next_attempt_at > now)
      return { kind: 'waiting', until: current.next_attempt_at };
    // The lease was given back between the two statements: try again shortly.
    return { kind: 'busy', until: now };
  }

  async finishAttempt(
    claim: ClaimHeld,
    outcome: AttemptOutcome,
    update: DeliveryUpdate,
    count?: HealthCount,
  ): Promise<FinishedAttempt> {
    const finishedAt = outcome.finished_at.toISOString();
    // The attempt's outcome is written whether or not the lease is still held, and the host slot given back; the
    // delivery, and the count in the endpoint's health, only while the lease is held.
    const counted = count
      ? sql`, counted AS (${healthCountSql({ numberId: claim.numberId, accountId: count.accountId, succeeded: count.succeeded, at: finishedAt }, 'delivery')})`
      : sql``;
    const [row] = (
      await sql<{ kept: boolean } & Partial<EndpointHealthRow>>`
      WITH attempt AS (
        UPDATE webhook_attempts
           SET status_code = ${outcome.status_code}::int, error = ${outcome.error}, finished_at = ${finishedAt}::timestamptz,
               duration_ms = ${outcome.duration_ms}::int
         WHERE id = ${claim.attemptId}::bigint
      ),
      freed AS (${this.giveBackSql(claim)}),
      delivery AS (
        UPDATE webhook_deliveries
           SET status = ${update.status}, attempts = ${update.attempts}::int, next_attempt_at = ${update.next_attempt_at?.toISOString() ?? null}::timestamptz,
               lease_until = NULL, updated_at = now()
         WHERE event_id = ${claim.eventId} AND status = 'pending' AND lease_until = ${claim.leaseUntil.toISOString()}::timestamptz
        RETURNING event_id
      )${counted}
      SELECT EXISTS (SELECT 1 FROM delivery) AS kept${count ? sql`, counted.consecutive_failures, counted.failing_since, counted.disabled_at FROM (SELECT 1) AS one LEFT JOIN counted ON true` : sql``}`.execute(
        this.prisma.$kysely(),
      )
    ).rows;
    const kept = row.kept;
    if (!count || !kept) return { kept };
    return {
      kept,
      endpoint: {
        consecutive_failures: row.consecutive_failures!,
        failing_since: row.failing_since ?? null,
        disabled_at: row.disabled_at ?? null,
      },
    };
  }

  async giveBackSlot(claim: Pick<ClaimHeld, 'host' | 'slot' | 'leaseUntil'>): Promise<void> {
    await this.giveBackSql(claim).execute(this.prisma.$kysely());
  }

  /** Deletes this process's hold on a host slot, if it still has it (a lease run out may have been taken over). */
  private giveBackSql({ host, slot, leaseUntil }: Pick<ClaimHeld, 'host' | 'slot' | 'leaseUntil'>) {
    return sql`
      DELETE FROM webhook_host_slots
       WHERE host = ${host} AND slot = ${slot}::int AND holder = ${this.holder} AND lease_until = ${leaseUntil.toISOString()}::timestamptz`;
  }

  async listAttempts(numberId: string, limit: number): Promise<AttemptRecord[]> {
    const attempts = await this.prisma.webhookAttempt.findMany({
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
        delivery: { select: { event_type: true } },
      },
    });
    return attempts.map(({ delivery, ...attempt }) => ({ ...attempt, event_type: delivery.event_type }));
  }
}
