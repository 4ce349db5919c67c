import { Inject, Injectable } from '@nestjs/common';
import { prebuiltStatement, type SqlPool } from '@switchboard/persistence';
import { REPORTS_SQL } from '../config/tokens';
import { CallsMediaPrisma, db } from '../prisma/calls-media-prisma';
import type { NumberOwnershipState } from './attribution';

/** `statesOf`'s statement, built once: it runs for every call report. */
const statesOfStatement = prebuiltStatement(
  (phoneNumber: string) =>
    db
      .selectFrom('number_states')
      .select(['number_id', 'version', 'account_id', 'phone_number', 'status', 'answering', 'changed_at'])
      .where('phone_number', '=', phoneNumber),
  ['\u0000phone number'],
);

@Injectable()
export class NumberStatesRepository {
  constructor(
    private readonly prisma: CallsMediaPrisma,
    @Inject(REPORTS_SQL) private readonly sql: SqlPool,
  ) {}

  /** Keeps a state; one already kept (same number and version, redelivered) is ignored. */
  async add(state: NumberOwnershipState): Promise<void> {
    await this.prisma.numberState.createMany({ data: [state], skipDuplicates: true });
  }

  /** Every state kept for the phone number, in no particular order. A plain statement: read on every call report. */
  statesOf(phoneNumber: string): Promise<NumberOwnershipState[]> {
    return this.sql.rows('number_states_of', statesOfStatement(phoneNumber));
  }
}
