import { Injectable } from '@nestjs/common';
import { DEFAULT_STORAGE_MODE, type StorageMode } from '@switchboard/contracts';
import { prebuiltStatement } from '@switchboard/persistence';
import { CallsMediaPrisma, statements } from '../prisma/calls-media-prisma';
import type { NumberOwnershipState } from './attribution';

/** `statesOf`'s statement, built once: it runs for every call report. */
const statesOfStatement = prebuiltStatement(
  (phoneNumber: string) =>
    statements
      .selectFrom('number_states')
      .select([
        'number_id',
        'version',
        'account_id',
        'phone_number',
        'status',
        'answering',
        'max_call_minutes',
        'changed_at',
      ])
      .where('phone_number', '=', phoneNumber),
  1,
);

/**
 * `ownersOf`'s statement: the phone number's states, each with its account's storage mode (an account without data
 * settings keeps everything), so a call report reads both in one statement.
 */
const ownersOfStatement = prebuiltStatement(
  (phoneNumber: string) =>
    statements
      .selectFrom('number_states')
      .leftJoin('account_data_settings', 'account_data_settings.account_id', 'number_states.account_id')
      .select([
        'number_states.number_id',
        'number_states.version',
        'number_states.account_id',
        'number_states.phone_number',
        'number_states.status',
        'number_states.answering',
        'number_states.max_call_minutes',
        'number_states.changed_at',
        'account_data_settings.storage_mode',
      ])
      .where('number_states.phone_number', '=', phoneNumber),
  1,
);

/** A phone number's states, and the storage mode of each account among them. */
export interface NumberOwners {
  states: NumberOwnershipState[];
  storageModes: ReadonlyMap<string, StorageMode>;
}

@Injectable()
export class NumberStatesRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  /** Keeps a state; one already kept (same number and version, redelivered) is ignored. */
  async add(state: NumberOwnershipState): Promise<void> {
    await this.prisma.numberState.createMany({ data: [state], skipDuplicates: true });
  }

  /** Every state kept for the phone number, in no particular order. A plain statement: read on every call report. */
  statesOf(phoneNumber: string): Promise<NumberOwnershipState[]> {
    return this.prisma
      .$kysely()
      .executeQuery(statesOfStatement(phoneNumber))
      .then(({ rows }) => rows);
  }

  /** As `statesOf`, with the storage mode of each account the states name (read when a call report arrives). */
  async ownersOf(phoneNumber: string): Promise<NumberOwners> {
    const { rows } = await this.prisma.$kysely().executeQuery(ownersOfStatement(phoneNumber));
    const storageModes = new Map<string, StorageMode>();
    const states = rows.map(({ storage_mode, ...state }) => {
      storageModes.set(state.account_id, (storage_mode as StorageMode | null) ?? DEFAULT_STORAGE_MODE);
      return state;
    });
    return { states, storageModes };
  }
}
