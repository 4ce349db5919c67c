import { Injectable } from '@nestjs/common';
import { sqlExecute, sqlRows } from '@switchboard/persistence';
import { sql, type Selectable } from 'kysely';
import type { WebhookEndpoint } from '../generated/kysely/database';
import { db, WebhookDispatcherPrisma, type Tx } from '../prisma/webhook-dispatcher-prisma';

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

/** Endpoint health rows (webhook_endpoints) and the deliveries an enabled endpoint resumes (docs/adr/0075). */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly prisma: WebhookDispatcherPrisma) {}

  async isDisabled(numberId: string): Promise<boolean> {
    const [row] = await sqlRows(
      this.prisma,
      db
        .selectFrom('webhook_endpoints')
        .select((eb) => eb('disabled_at', 'is not', null).as('disabled'))
        .where('number_id', '=', numberId)
        .$narrowType<{ disabled: boolean }>(),
    );
    return row?.disabled ?? false;
  }

  /**
   * Counts one attempt's outcome in one upsert: a success ends the run of failures, a failure extends it (the run
   * starting at `at`). Returns the endpoint after the count.
   */
  async recordOutcome(input: {
    numberId: string;
    accountId: string;
    succeeded: boolean;
    at: string;
  }): Promise<EndpointRow> {
    const [row] = await sqlRows(
      this.prisma,
      sql<EndpointRow>`
      INSERT INTO webhook_endpoints AS e (number_id, account_id, consecutive_failures, failing_since, updated_at)
      VALUES (${input.numberId}, ${input.accountId}, ${input.succeeded ? 0 : 1}::int, ${input.succeeded ? null : input.at}::timestamptz, now())
      ON CONFLICT (number_id) DO UPDATE SET
        consecutive_failures = CASE WHEN ${input.succeeded} THEN 0 ELSE e.consecutive_failures + 1 END,
        failing_since = CASE WHEN ${input.succeeded} THEN NULL ELSE COALESCE(e.failing_since, EXCLUDED.failing_since) END,
        updated_at = now()
      RETURNING number_id, consecutive_failures, failing_since, disabled_at, disabled_reason`,
    );
    return row;
  }

  /** Disables the endpoint at `at` unless it already is; true when this call disabled it. */
  async disable(tx: Tx, numberId: string, reason: string, at: string): Promise<boolean> {
    const count = await sqlExecute(
      tx,
      db
        .updateTable('webhook_endpoints')
        .set({ disabled_at: sql<Date>`${at}::timestamptz`, disabled_reason: reason, updated_at: sql<Date>`now()` })
        .where('number_id', '=', numberId)
        .where('disabled_at', 'is', null),
    );
    return count === 1;
  }

  async find(accountId: string, numberId: string): Promise<EndpointRow | undefined> {
    const [row] = await sqlRows(
      this.prisma,
      db
        .selectFrom('webhook_endpoints')
        .select(ENDPOINT_COLUMNS)
        .where('number_id', '=', numberId)
        .where('account_id', '=', accountId),
    );
    return row;
  }

  /** Enables the endpoint: its run of failures forgotten. */
  async enable(tx: Tx, accountId: string, numberId: string): Promise<void> {
    await sqlExecute(
      tx,
      db
        .updateTable('webhook_endpoints')
        .set({
          disabled_at: sql.lit(null),
          disabled_reason: sql.lit(null),
          consecutive_failures: sql.lit(0),
          failing_since: sql.lit(null),
          updated_at: sql<Date>`now()`,
        })
        .where('number_id', '=', numberId)
        .where('account_id', '=', accountId),
    );
  }

  /** Queues every event of the number that waited while its endpoint was disabled (a new round each); their count. */
  resumePaused(tx: Tx, accountId: string, numberId: string, now: Date): Promise<number> {
    return sqlExecute(
      tx,
      db
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
        .where('body', 'is not', null),
    );
  }
}
