import { Injectable } from '@nestjs/common';
import type { OutboxRow } from '@switchboard/messaging';
import { Prisma } from '../generated/prisma/client';
import type { NumberOwnershipState } from '../number-ownership/attribution';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';
import type { ProviderTranscriptTurn } from '../telephony/provider-call-report';

export type ReportState = 'pending' | 'recorded' | 'discarded';
export type DiscardReason = 'not_owned' | 'paused';

/** What a waiting report keeps (the audio is already in object storage). */
export interface ReportDetails {
  caller: string;
  direction: string;
  status: string;
  outcome: string;
  duration_sec: number;
  transcript: ProviderTranscriptTurn[] | null;
}

export interface StoredRecording {
  key: string;
  size: number;
  etag: string;
  content_type: string;
}

export interface PendingReport {
  call_sid: string;
  to: string;
  started_at: Date;
  received_at: Date;
  details: ReportDetails;
  recording: StoredRecording | null;
}

export interface NewReport {
  call_sid: string;
  to: string;
  started_at: Date;
  details: ReportDetails;
  recording: StoredRecording | null;
}

@Injectable()
export class CallReportsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  async stateOf(callSid: string): Promise<ReportState | null> {
    const row = await this.prisma.callReport.findUnique({ where: { call_sid: callSid }, select: { state: true } });
    return (row?.state as ReportState | undefined) ?? null;
  }

  /** Inserts the report as pending; false when a report with this SID was already there (a repeat). */
  async addPending(report: NewReport): Promise<boolean> {
    const { count } = await this.prisma.callReport.createMany({
      data: [
        {
          call_sid: report.call_sid,
          to: report.to,
          started_at: report.started_at,
          state: 'pending',
          report: { ...report.details, recording_content_type: report.recording?.content_type ?? null } as unknown as Prisma.InputJsonValue,
          recording_key: report.recording?.key ?? null,
          recording_size: report.recording?.size ?? null,
          recording_etag: report.recording?.etag ?? null,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async findPending(callSid: string): Promise<PendingReport | null> {
    const row = await this.prisma.callReport.findFirst({ where: { call_sid: callSid, state: 'pending' } });
    return row ? toPending(row) : null;
  }

  async pendingSids(where: { to?: string } = {}, limit = 500): Promise<string[]> {
    const rows = await this.prisma.callReport.findMany({
      where: { state: 'pending', ...(where.to ? { to: where.to } : {}) },
      orderBy: { received_at: 'asc' },
      take: limit,
      select: { call_sid: true },
    });
    return rows.map((row) => row.call_sid);
  }

  /**
   * Records the call, its transcript and its `call.completed` outbox row in one transaction, and marks the
   * report recorded. False when the report was no longer pending (another worker settled it first).
   */
  record(report: PendingReport, owner: NumberOwnershipState, outbox: OutboxRow): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const claimed = await tx.callReport.updateMany({
        where: { call_sid: report.call_sid, state: 'pending' },
        data: { state: 'recorded', settled_at: new Date(), report: Prisma.DbNull },
      });
      if (claimed.count === 0) return false;
      const turns = report.details.transcript ?? [];
      await tx.call.create({
        data: {
          id: report.call_sid,
          account_id: owner.account_id,
          number_id: owner.number_id,
          phone_number: owner.phone_number,
          caller: report.details.caller,
          direction: report.details.direction,
          status: report.details.status,
          outcome: report.details.outcome,
          duration_sec: report.details.duration_sec,
          started_at: report.started_at,
          has_transcript: turns.length > 0,
          recording_key: report.recording?.key ?? null,
          recording_size: report.recording?.size ?? null,
          recording_etag: report.recording?.etag ?? null,
          recording_content_type: report.recording?.content_type ?? null,
          turns: { create: turns.map((turn, position) => ({ position, role: turn.role, text: turn.text })) },
        },
      });
      await tx.outboxEvent.create({
        data: {
          id: outbox.id,
          type: outbox.type,
          payload: outbox.payload,
          headers: outbox.headers,
        },
      });
      return true;
    });
  }

  /** Settles a report without a call; its details are dropped. False when it was no longer pending. */
  async discard(callSid: string, reason: DiscardReason): Promise<boolean> {
    const { count } = await this.prisma.callReport.updateMany({
      where: { call_sid: callSid, state: 'pending' },
      data: { state: 'discarded', reason, settled_at: new Date(), report: Prisma.DbNull },
    });
    return count === 1;
  }
}

type CallReportRow = Awaited<ReturnType<CallsMediaPrisma['callReport']['findFirst']>> & object;

function toPending(row: CallReportRow): PendingReport {
  const stored = row.report as unknown as ReportDetails & { recording_content_type: string | null };
  return {
    call_sid: row.call_sid,
    to: row.to,
    started_at: row.started_at,
    received_at: row.received_at,
    details: {
      caller: stored.caller,
      direction: stored.direction,
      status: stored.status,
      outcome: stored.outcome,
      duration_sec: stored.duration_sec,
      transcript: stored.transcript,
    },
    recording:
      row.recording_key && row.recording_size !== null && row.recording_etag
        ? { key: row.recording_key, size: row.recording_size, etag: row.recording_etag, content_type: stored.recording_content_type ?? 'audio/mpeg' }
        : null,
  };
}
