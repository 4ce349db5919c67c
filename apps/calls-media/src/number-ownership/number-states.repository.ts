import { Injectable } from '@nestjs/common';
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
}
