import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PROVIDER_EVENTS, providerEventId, type ProviderEventReceivedData } from '@switchboard/contracts';
import { writeOutboxEvent } from '@switchboard/messaging';
import { GatewayTransactions } from '../prisma/gateway-prisma';

/** Namespace of the provider events' name-based UUIDs (fixed forever: changing it would re-id every event). */
const NAMESPACE = Buffer.from('3f9d2b7c5e1a4c8d9b6f0a2e4d7c1b53', 'hex');

/**
 * The envelope id of a provider event: a name-based UUID (version 5, RFC 9562) of `<provider>:<event id>`, so the
 * outbox row id (a UUID column) and JetStream's message id are the same for the same provider event.
 */
export function providerEnvelopeId(data: Pick<ProviderEventReceivedData, 'provider' | 'event_id'>): string {
  const hash = createHash('sha1')
    .update(NAMESPACE)
    .update(providerEventId(data.provider, data.event_id), 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `provider_events` and the gateway's outbox. */
@Injectable()
export class ProviderEventsRepository {
  constructor(private readonly transactions: GatewayTransactions) {}

  /**
   * Records a verified provider event and its outbox row in one transaction. True the first time; false when the
   * provider sent the same event before (nothing is written, nothing is published again).
   */
  async accept(data: ProviderEventReceivedData, cause: { requestId: string }): Promise<boolean> {
    return this.transactions.run(async (tx) => {
      const inserted = await tx
        .$kysely()
        .insertInto('provider_events')
        .values({ provider: data.provider, event_id: data.event_id, kind: data.kind })
        .onConflict((conflict) => conflict.columns(['provider', 'event_id']).doNothing())
        .executeTakeFirst();
      if (inserted.numInsertedOrUpdatedRows !== 1n) return false;
      await writeOutboxEvent(tx, PROVIDER_EVENTS[data.provider], data, {
        correlationId: cause.requestId,
        id: providerEnvelopeId(data),
      });
      return true;
    });
  }
}
