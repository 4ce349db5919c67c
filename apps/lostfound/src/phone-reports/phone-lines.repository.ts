import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { PhoneLine } from '../generated/kysely/database';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';

export type PhoneLineRecord = Pick<Selectable<PhoneLine>, 'number_id' | 'account_id' | 'location_id'>;

/** Numbers linked to a location as its lost-and-found line (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md). */
@Injectable()
export class PhoneLinesRepository {
  constructor(private readonly prisma: LostfoundPrisma) {}

  /** Links (or re-links) the number; a number is the line of one location at most. */
  async link(line: PhoneLineRecord): Promise<PhoneLineRecord> {
    return this.prisma.phoneLine.upsert({
      where: { number_id: line.number_id },
      create: line,
      update: { account_id: line.account_id, location_id: line.location_id },
      select: { number_id: true, account_id: true, location_id: true },
    });
  }

  async unlink(accountId: string, numberId: string): Promise<void> {
    await this.prisma.phoneLine.deleteMany({ where: { number_id: numberId, account_id: accountId } });
  }

  /** The number's line when it is the account's. */
  find(accountId: string, numberId: string): Promise<PhoneLineRecord | null> {
    return this.prisma.phoneLine.findFirst({
      where: { number_id: numberId, account_id: accountId },
      select: { number_id: true, account_id: true, location_id: true },
    });
  }
}
