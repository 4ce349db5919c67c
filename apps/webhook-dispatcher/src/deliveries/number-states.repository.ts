import { Injectable } from '@nestjs/common';
import type { NumberStateChanged } from '@switchboard/contracts';
import { sql, type Selectable } from 'kysely';
import type { WebhookNumberState } from '../generated/kysely/database';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';

/** The number's state before an event was recorded; null columns when none was kept. */
export type PreviousNumberState = {
  previous: Selectable<WebhookNumberState>['status'] | null;
  previous_version: Selectable<WebhookNumberState>['version'] | null;
};

/** The last state of each number seen on `number.updated`/`number.released` (webhook_number_states). */
@Injectable()
export class NumberStatesRepository {
  constructor(private readonly prisma: WebhookDispatcherPrisma) {}

  /**
   * Keeps the number's newest state (a higher `version` wins; an older event changes nothing) and returns the state
   * kept before this statement. One statement: the read and the conditional upsert see the same snapshot.
   */
  async record(number: Pick<NumberStateChanged, 'number_id' | 'status' | 'version'>): Promise<PreviousNumberState> {
    const [row] = (
      await sql<PreviousNumberState>`
      WITH prev AS (SELECT status, version FROM webhook_number_states WHERE number_id = ${number.number_id}),
      saved AS (
        INSERT INTO webhook_number_states AS s (number_id, status, version, updated_at)
        VALUES (${number.number_id}, ${number.status}, ${number.version}::bigint, now())
        ON CONFLICT (number_id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_at = now()
         WHERE s.version < EXCLUDED.version
        RETURNING 1
      )
      SELECT (SELECT status FROM prev) AS previous, (SELECT version FROM prev) AS previous_version`.execute(
        this.prisma.$kysely(),
      )
    ).rows;
    return row;
  }
}
