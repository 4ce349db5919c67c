import { Inject, Injectable } from '@nestjs/common';
import type { SqlPool } from '@switchboard/persistence';
import { sql, type Selectable } from 'kysely';
import { randomUUID } from 'node:crypto';
import { DELIVERY_SQL, DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import type { WebhookHostSlot } from '../generated/kysely/database';
import { db } from '../prisma/webhook-dispatcher-prisma';
import type { SharedHostSlotsPort, SharedSlot } from './shared-host-slots.port';

/**
 * `WEBHOOK_HOST_CONCURRENCY` slots per receiver host, shared by every dispatcher replica through one table
 * (docs/adr/0076-shared-host-limit.md). Taking a slot is one statement: it picks a slot number no live lease holds and
 * inserts it, or takes it over when its lease ran out; two replicas picking the same number meet on the primary key
 * and the one that commits second gets nothing (it tries again shortly, as with a busy host). A slot is given back
 * after the attempt; a crashed holder's slot frees itself when its lease (the attempt's) runs out. The port's adapter:
 * its whole job is the `webhook_host_slots` table.
 */
@Injectable()
export class PostgresHostSlots implements SharedHostSlotsPort {
  private readonly holder = randomUUID();
  private readonly limit: number;

  constructor(
    @Inject(DELIVERY_SQL) private readonly sql: SqlPool,
    @Inject(DISPATCHER_CONFIG) config: Pick<WebhookDispatcherConfig, 'hostConcurrency'>,
  ) {
    this.limit = config.hostConcurrency;
  }

  async tryAcquire(host: string, leaseUntil: Date): Promise<SharedSlot | undefined> {
    const lease = leaseUntil.toISOString();
    const [taken] = await this.sql.rows(
      'take_host_slot',
      sql<Pick<Selectable<WebhookHostSlot>, 'slot'>>`
      WITH free AS (
        SELECT s AS slot FROM generate_series(0, ${this.limit - 1}::int) AS s
         WHERE NOT EXISTS (SELECT 1 FROM webhook_host_slots h WHERE h.host = ${host} AND h.slot = s AND h.lease_until > now())
         ORDER BY random() LIMIT 1
      )
      INSERT INTO webhook_host_slots AS h (host, slot, holder, lease_until)
      SELECT ${host}, slot, ${this.holder}, ${lease}::timestamptz FROM free
      ON CONFLICT (host, slot) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
       WHERE h.lease_until <= now()
      RETURNING h.slot`,
    );
    if (!taken) return undefined;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await this.sql.rows(
          'give_back_host_slot',
          db
            .deleteFrom('webhook_host_slots')
            .where('host', '=', host)
            .where('slot', '=', sql<number>`${taken.slot}::int`)
            .where('holder', '=', this.holder)
            .where('lease_until', '=', sql<Date>`${lease}::timestamptz`),
        );
      },
    };
  }
}
