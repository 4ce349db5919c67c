import { Injectable } from '@nestjs/common';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { WebhookEndpoint } from '../generated/kysely/database';
import { WebhookDispatcherPrisma, type Tx } from '../prisma/webhook-dispatcher-prisma';

/** An endpoint's health as EndpointHealth reads it. */
export type EndpointRow = Pick<
  Selectable<WebhookEndpoint>,
  'number_id' | 'consecutive_failures' | 'failing_since' | 'disabled_at' | 'disabled_reason'
>;

const ENDPOINT_COLUMNS = [
  'number_id',
  'consecutive_failures',
  'failing_since',
  'disabled_at',
  'disabled_reason',
] as const;

/**
 * Counts one attempt's outcome in one upsert (a success ends the run of failures, a failure extends it, the run
 * starting at `at`), as a statement to embed: the delivery's own last statement makes it (DeliveriesRepository),
 * so a counted attempt costs no round trip of its own. `source` names a relation of at most one row (a CTE) that
 * must hold a row for the count to be made. Returns the endpoint after the count.
 */
export function healthCountSql(
  input: { numberId: string; accountId: string; succeeded: boolean; at: string },
  source: string,
): RawBuilder<EndpointRow> {
  return sql<EndpointRow>`
      INSERT INTO webhook_endpoints AS e (number_id, account_id, consecutive_failures, failing_since, updated_at)
      SELECT ${input.numberId}, ${input.accountId}, ${input.succeeded ? 0 : 1}::int, ${input.succeeded ? null : input.at}::timestamptz, now()
        FROM ${sql.table(source)}
      ON CONFLICT (number_id) DO UPDATE SET
        consecutive_failures = CASE WHEN ${input.succeeded} THEN 0 ELSE e.consecutive_failures + 1 END,
        failing_since = CASE WHEN ${input.succeeded} THEN NULL ELSE COALESCE(e.failing_since, EXCLUDED.failing_since) END,
        updated_at = now()
      RETURNING number_id, consecutive_failures, failing_since, disabled_at, disabled_reason`;
}

/** The endpoint of `numberId` is disabled: a condition to embed in a statement. */
export function endpointDisabledSql(numberId: string): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.number_id = ${numberId} AND e.disabled_at IS NOT NULL)`;
}

/** Endpoint health rows (webhook_endpoints) and the deliveries an enabled endpoint resumes (docs/adr/0075). */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly prisma: WebhookDispatcherPrisma) {}

  /** Disables the endpoint at `at` unless it already is; true when this call disabled it. */
  async disable(tx: Tx, numberId: string, reason: string, at: string): Promise<boolean> {
    const { numUpdatedRows } = await tx
      .$kysely()
      .updateTable('webhook_endpoints')
      .set({ disabled_at: sql<Date>`${at}::timestamptz`, disabled_reason: reason, updated_at: sql<Date>`now()` })
      .where('number_id', '=', numberId)
      .where('disabled_at', 'is', null)
      .executeTakeFirstOrThrow();
    return numUpdatedRows === 1n;
  }

  async find(accountId: string, numberId: string): Promise<EndpointRow | undefined> {
    const [row] = await this.prisma
      .$kysely()
      .selectFrom('webhook_endpoints')
      .select(ENDPOINT_COLUMNS)
      .where('number_id', '=', numberId)
      .where('account_id', '=', accountId)
      .execute();
    return row;
  }

  /** Enables the endpoint: its run of failures forgotten. */
  async enable(tx: Tx, accountId: string, numberId: string): Promise<void> {
    await tx
      .$kysely()
      .updateTable('webhook_endpoints')
      .set({
        disabled_at: sql.lit(null),
        disabled_reason: sql.lit(null),
        consecutive_failures: sql.lit(0),
        failing_since: sql.lit(null),
        updated_at: sql<Date>`now()`,
      })
      .where('number_id', '=', numberId)
      .where('account_id', '=', accountId)
      .execute();
  }

  /** Queues every event of the number that waited while its endpoint was disabled (a new round each); their count. */
  async resumePaused(tx: Tx, accountId: string, numberId: string, now: Date): Promise<number> {
    const { numUpdatedRows } = await tx
      .$kysely()
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: sql.lit('pending'),
        attempt_base: eb.ref('attempts'),
        detached: sql.lit(true),
        next_attempt_at: sql<Date>`${now.toISOString()}::timestamptz`,
        lease_until: sql.lit(null),
        updated_at: sql<Date>`now()`,
      }))
      .where('number_id', '=', numberId)
      .where('account_id', '=', accountId)
      .where('status', '=', sql.lit('paused'))
      .where('body', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(numUpdatedRows);
  }
}
