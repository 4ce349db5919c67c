import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';

export interface CallRecord {
  id: string;
  seq: bigint;
  account_id: string;
  number_id: string;
  phone_number: string;
  caller: string;
  direction: string;
  status: string;
  outcome: string;
  duration_sec: number;
  started_at: Date;
  has_transcript: boolean;
  recording_key: string | null;
  recording_size: number | null;
  recording_etag: string | null;
  recording_content_type: string | null;
}

export interface CallFilter {
  accountId: string;
  numberId?: string;
  since?: Date;
  until?: Date;
  /** Only calls after this one in the list's order (newest first). */
  after?: { started_at: Date; seq: bigint };
}

const CALL_FIELDS = {
  id: true,
  seq: true,
  account_id: true,
  number_id: true,
  phone_number: true,
  caller: true,
  direction: true,
  status: true,
  outcome: true,
  duration_sec: true,
  started_at: true,
  has_transcript: true,
  recording_key: true,
  recording_size: true,
  recording_etag: true,
  recording_content_type: true,
} as const;

@Injectable()
export class CallsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  /** The account's call with this id; null for an unknown id and for another account's call alike. */
  findForAccount(accountId: string, callId: string): Promise<CallRecord | null> {
    return this.prisma.call.findFirst({ where: { id: callId, account_id: accountId }, select: CALL_FIELDS });
  }

  /** Newest first (start time, then arrival order), at most `limit`. */
  list(filter: CallFilter, limit: number): Promise<CallRecord[]> {
    const where: Prisma.CallWhereInput[] = [{ account_id: filter.accountId }];
    if (filter.numberId) where.push({ number_id: filter.numberId });
    if (filter.since) where.push({ started_at: { gte: filter.since } });
    if (filter.until) where.push({ started_at: { lt: filter.until } });
    if (filter.after) {
      where.push({
        OR: [
          { started_at: { lt: filter.after.started_at } },
          { started_at: filter.after.started_at, seq: { lt: filter.after.seq } },
        ],
      });
    }
    return this.prisma.call.findMany({
      where: { AND: where },
      orderBy: [{ started_at: 'desc' }, { seq: 'desc' }],
      take: limit,
      select: CALL_FIELDS,
    });
  }

  async transcriptOf(callId: string): Promise<{ role: string; text: string }[]> {
    return this.prisma.transcriptTurn.findMany({ where: { call_id: callId }, orderBy: { position: 'asc' }, select: { role: true, text: true } });
  }
}
