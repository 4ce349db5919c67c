import type { EventDescriptor } from '@switchboard/contracts';
import { outboxRecord, type EventCause } from '@switchboard/messaging';
import type { Tx } from '../prisma/lostfound-prisma';

/** Writes an event to the outbox inside the caller's transaction; the relay publishes it after commit. */
export async function writeEvent<T extends object>(tx: Tx, event: EventDescriptor<T>, data: T, cause: EventCause): Promise<void> {
  await tx.outboxEvent.create({ data: outboxRecord(event, data, cause) });
}
