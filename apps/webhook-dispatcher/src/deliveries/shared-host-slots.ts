import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';

export interface SharedSlot {
  release(): Promise<void>;
}

/** The per-host cap across every replica (PostgreSQL in the app, unlimited in unit tests). */
export interface SharedHostSlotsPort {
  /** A slot for `host` until `leaseUntil` (or its release), or undefined when every replica's share is taken. */
  tryAcquire(host: string, leaseUntil: Date): Promise<SharedSlot | undefined>;
}

export const SHARED_HOST_SLOTS = Symbol('SHARED_HOST_SLOTS');

/**
 * `WEBHOOK_HOST_CONCURRENCY` slots per receiver host, shared by every dispatcher replica through one table
 * (docs/adr/0076-shared-host-limit.md). Taking a slot is one statement: it picks a slot number no live lease holds and
 * inserts it, or takes it over when its lease ran out; two replicas picking the same number meet on the primary key
 * and the one that commits second gets nothing (it tries again shortly, as with a busy host). A slot is given back
 * after the attempt; a crashed holder's slot frees itself when its lease (the attempt's) runs out.
 */
@Injectable()
export class PostgresHostSlots implements SharedHostSlotsPort {
  private readonly holder = randomUUID();
  private readonly limit: number;

  constructor(
    private readonly prisma: WebhookDispatcherPrisma,
    @Inject(DISPATCHER_CONFIG) config: Pick<WebhookDispatcherConfig, 'hostConcurrency'>,
  ) {
    this.limit = config.hostConcurrency;
  }

  async tryAcquire(host: string, leaseUntil: Date): Promise<SharedSlot | undefined> {
    const lease = leaseUntil.toISOString();
    const [taken] = await this.prisma.$queryRaw<{ slot: number }[]>`
      WITH free AS (
        SELECT s AS slot FROM generate_series(0, ${this.limit - 1}::int) AS s
         WHERE NOT EXISTS (SELECT 1 FROM webhook_host_slots h WHERE h.host = ${host} AND h.slot = s AND h.lease_until > now())
         ORDER BY random() LIMIT 1
      )
      INSERT INTO webhook_host_slots AS h (host, slot, holder, lease_until)
      SELECT ${host}, slot, ${this.holder}, ${lease}::timestamptz FROM free
      ON CONFLICT (host, slot) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
       WHERE h.lease_until <= now()
      RETURNING h.slot`;
    if (!taken) return undefined;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await this.prisma.$executeRaw`
          DELETE FROM webhook_host_slots WHERE host = ${host} AND slot = ${taken.slot}::int AND holder = ${this.holder} AND lease_until = ${lease}::timestamptz`;
      },
    };
  }
}
