import { Injectable } from '@nestjs/common';
import type { LostItemReportView } from '@switchboard/contracts';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';

@Injectable()
export class LostItemReportsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  /** The lost-item report of one of the account's calls; null for another account's call or a call without one. */
  async find(callSid: string, accountId: string): Promise<LostItemReportView | null> {
    return this.prisma.lostItemReport.findFirst({
      where: { call_sid: callSid, account_id: accountId },
      select: {
        call_sid: true,
        number_id: true,
        caller: true,
        caller_name: true,
        category: true,
        description: true,
        color: true,
        where_lost: true,
        lost_at: true,
      },
    });
  }
}
