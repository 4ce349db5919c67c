import { Injectable } from '@nestjs/common';
import type { EventDescriptor } from '@switchboard/contracts';
import { writeOutboxEvent, type EventCause } from '@switchboard/messaging';
import { OutboxRelay } from '@switchboard/service-runtime';
import type { Tx } from '../prisma/numbers-billing-prisma';

/**
 * The transactional outbox of numbers-billing: `write` adds an event to the transaction that makes the change it
 * reports; the relay (provided by `provideOutboxRelay`) publishes committed rows to the NUMBERS stream, at once
 * after `kick()`, else at its poll.
 */
@Injectable()
export class NumbersOutbox {
  constructor(private readonly relay: OutboxRelay) {}

  async write<T extends object>(tx: Tx, event: EventDescriptor<T>, data: T, cause: EventCause): Promise<void> {
    await writeOutboxEvent(tx, event, data, cause);
  }

  /** Publish now (call after the transaction committed). */
  kick(): void {
    this.relay.kick();
  }

  /** Publishes every committed row now (tests). */
  drain(): Promise<number> {
    return this.relay.drain();
  }
}
