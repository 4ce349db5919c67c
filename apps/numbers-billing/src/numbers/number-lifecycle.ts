import { Injectable } from '@nestjs/common';
import {
  NumberReleasedEvent,
  NumberUpdatedEvent,
  type EventDescriptor,
  type NumberStateChanged,
} from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import type { Tx } from '../prisma/numbers-billing-prisma';
import { toStateChanged, type NumberRecord } from './number-record';
import { NumbersRepository } from './numbers.repository';

export interface AccountAnswering {
  allowance_exhausted_period: string | null;
}

/**
 * The moves of a number's state machine (spec part 3), each written with its event in the caller's transaction:
 * active -> past_due (paused), past_due -> active (paid within the grace), active|past_due -> released.
 */
@Injectable()
export class NumberLifecycle {
  constructor(
    private readonly numbers: NumbersRepository,
    private readonly outbox: NumbersOutbox,
  ) {}

  async markPastDue(
    tx: Tx,
    number: NumberRecord,
    account: AccountAnswering,
    now: Date,
    cause: EventCause,
  ): Promise<NumberRecord> {
    const updated = await this.numbers.update(tx, number.id, { status: 'past_due', past_due_since: now });
    await this.publish(tx, NumberUpdatedEvent, updated, account, cause);
    return updated;
  }

  async reactivate(tx: Tx, number: NumberRecord, account: AccountAnswering, cause: EventCause): Promise<NumberRecord> {
    const updated = await this.numbers.update(tx, number.id, { status: 'active', past_due_since: null });
    await this.publish(tx, NumberUpdatedEvent, updated, account, cause);
    return updated;
  }

  /** Final: billing stops; the provider release follows after commit (`NumbersService.releaseAtProvider`). */
  async release(
    tx: Tx,
    number: NumberRecord,
    account: AccountAnswering,
    now: Date,
    cause: EventCause,
  ): Promise<NumberRecord> {
    const updated = await this.numbers.update(tx, number.id, { status: 'released', released_at: now });
    await this.publish(tx, NumberReleasedEvent, updated, account, cause);
    return updated;
  }

  /** New details set by the account (`PATCH /numbers/{id}`): a new version, published as `number.updated`. */
  async changeDetails(
    tx: Tx,
    number: NumberRecord,
    account: AccountAnswering,
    changes: Partial<Pick<NumberRecord, 'webhook_url' | 'webhook_events' | 'business_phone' | 'max_call_minutes'>>,
    cause: EventCause,
  ): Promise<NumberRecord> {
    const updated = await this.numbers.update(tx, number.id, changes);
    await this.publish(tx, NumberUpdatedEvent, updated, account, cause);
    return updated;
  }

  /** Whether the agent answers changed for the account's active numbers (allowance used up or renewed). */
  async answeringChanged(tx: Tx, accountId: string, account: AccountAnswering, cause: EventCause): Promise<number> {
    const active = await this.numbers.lockAccountNumbers(tx, accountId, ['active']);
    for (const number of active) {
      const updated = await this.numbers.bumpVersion(tx, number.id);
      await this.publish(tx, NumberUpdatedEvent, updated, account, cause);
    }
    return active.length;
  }

  /** `changedAt`: when the state began (default now); a provisioned number's tenure begins at its `created_at`. */
  async publish(
    tx: Tx,
    event: EventDescriptor<NumberStateChanged>,
    number: NumberRecord,
    account: AccountAnswering,
    cause: EventCause,
    changedAt: Date = new Date(),
  ): Promise<void> {
    await this.outbox.write(tx, event, toStateChanged(number, account, changedAt), cause);
  }
}
