import { Injectable } from '@nestjs/common';
import type { OutboxRow } from '@switchboard/messaging';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { CallReport } from '../generated/kysely/database';
import { Prisma } from '../generated/prisma/client';
import type { NumberOwnershipState } from '../number-ownership/attribution';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';
import { CALL_INCOMPLETE, CALL_IN_PROGRESS, type CallAnalysisView, type LiveCallEvent } from '@switchboard/contracts';
import type { ProviderCallAnalysis, ProviderLostItem, ProviderTranscriptTurn } from '../telephony/provider-call-report';
import { SEARCH_CONFIG, searchDocument } from '../calls/calls.repository';
import { LIVE_EVENT_COLUMNS, takeLiveEventSeqs } from './live-event-log';

export type ReportState = 'pending' | 'recorded' | 'discarded';
/**
 * `ambiguous_owner`: two numbers held the phone number at once (data from before ADR 0121's rule), so the call went
 * to neither.
 */
export type DiscardReason = 'not_owned' | 'paused' | 'ambiguous_owner';

/** What a waiting report keeps (the audio is already in object storage). */
export interface ReportDetails {
  caller: string;
  direction: string;
  status: string;
  outcome: string;
  duration_sec: number;
  transcript: ProviderTranscriptTurn[] | null;
  /** Kept only with the outcome `lost_item_report` (docs/adr/0079). */
  lost_item?: ProviderLostItem | null;
  /** As the provider gave it: checked against the number's fields when the call is recorded. */
  analysis?: ProviderCallAnalysis | null;
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

  /**
   * Inserts the report as pending and returns it as stored (`received_at` is the database's); null when a report
   * with this SID was already there (a repeat). One statement: the insert is also the repeat check.
   */
  async addPending(report: NewReport): Promise<PendingReport | null> {
    const details = { ...report.details, recording_content_type: report.recording?.content_type ?? null };
    const rows = (
      await sql<Pick<Selectable<CallReport>, 'received_at'>>`
      INSERT INTO call_reports (call_sid, "to", started_at, state, report, recording_key, recording_size, recording_etag)
      VALUES (${report.call_sid}, ${report.to}, ${report.started_at.toISOString()}::timestamptz, 'pending', ${JSON.stringify(details)}::jsonb,
              ${report.recording?.key ?? null}, ${report.recording?.size ?? null}::int, ${report.recording?.etag ?? null})
      ON CONFLICT (call_sid) DO NOTHING
      RETURNING received_at`.execute(this.prisma.$kysely())
    ).rows;
    if (rows.length === 0) return null;
    return {
      call_sid: report.call_sid,
      to: report.to,
      started_at: report.started_at,
      received_at: rows[0].received_at,
      details: report.details,
      recording: report.recording,
    };
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
   * Records the call of a waiting report, its transcript and its `call.completed` outbox row, and marks the
   * report recorded, in one statement (one transaction, one round trip). Null when the report was no longer
   * pending (another worker settled it first): the claim's row lock makes a concurrent one find it recorded.
   */
  async record(
    report: PendingReport,
    owner: NumberOwnershipState,
    analysis: CallAnalysisView,
    outbox: OutboxRow[],
    droppedRecording: string | null = null,
  ): Promise<Recorded | null> {
    const claimed = sql<CallSid>`
      UPDATE call_reports SET state = 'recorded', settled_at = now(), report = NULL,
             recording_key = ${report.recording?.key ?? null}, recording_size = ${report.recording?.size ?? null}::int,
             recording_etag = ${report.recording?.etag ?? null}
       WHERE call_sid = ${report.call_sid} AND state = 'pending'
      RETURNING call_sid`;
    const { rows } = await recordCallOnce(claimed, report, owner, analysis, outbox, droppedRecording).execute(
      this.prisma.$kysely(),
    );
    return recordedOf(rows);
  }

  /**
   * Stores a report that is settled on arrival (its owner is known) in one statement: the report, already
   * recorded, with its call, transcript and `call.completed` outbox row. `received_at` is the instant its owner
   * was decided at. Null when a report with this SID was already there (a repeat): then nothing is written.
   */
  async addRecorded(
    report: NewReport,
    receivedAt: Date,
    owner: NumberOwnershipState,
    analysis: CallAnalysisView,
    outbox: OutboxRow[],
    droppedRecording: string | null = null,
  ): Promise<Recorded | null> {
    const at = receivedAt.toISOString();
    const inserted = sql<CallSid>`
      INSERT INTO call_reports (call_sid, "to", started_at, state, recording_key, recording_size, recording_etag, received_at, settled_at)
      VALUES (${report.call_sid}, ${report.to}, ${report.started_at.toISOString()}::timestamptz, 'recorded',
              ${report.recording?.key ?? null}, ${report.recording?.size ?? null}::int, ${report.recording?.etag ?? null},
              ${at}::timestamptz, ${at}::timestamptz)
      ON CONFLICT (call_sid) DO NOTHING
      RETURNING call_sid`;
    const { rows } = await recordCallOnce(inserted, report, owner, analysis, outbox, droppedRecording).execute(
      this.prisma.$kysely(),
    );
    return recordedOf(rows);
  }

  /**
   * Corrects a call closed as `incomplete` with its late end report (docs/live-calls.md), in one statement: the call
   * as the report says (its transcript replacing the one kept; a transcript deleted meanwhile stays deleted) and its
   * `call.updated` outbox row, whose `previous_status` and `previous_duration_sec` are read under the call's row lock.
   * Null when the call is not `incomplete` (never closed so, or already corrected): nothing is written.
   */
  async correctIncomplete(
    report: NewReport,
    analysis: CallAnalysisView,
    updated: OutboxRow,
    droppedRecording: string | null = null,
  ): Promise<{ previous_status: string; previous_duration_sec: number } | null> {
    const turns = report.details.transcript ?? [];
    const recording = report.recording;
    const document = searchDocument(analysis.summary, turns);
    const { rows } = await sql<{ previous_status: string; previous_duration_sec: number }>`
      WITH prev AS (
        SELECT id, status, duration_sec FROM calls WHERE id = ${report.call_sid} AND status = ${CALL_INCOMPLETE} FOR UPDATE
      ),
      call AS (
        UPDATE calls SET caller = ${report.details.caller}, direction = ${report.details.direction},
               status = ${report.details.status}, outcome = ${report.details.outcome},
               duration_sec = ${report.details.duration_sec}::int, recording_key = ${recording?.key ?? null},
               recording_size = ${recording?.size ?? null}::int, recording_etag = ${recording?.etag ?? null},
               recording_content_type = ${recording?.content_type ?? null}, sentiment = ${analysis.sentiment},
               successful = ${analysis.successful}::boolean, custom_analysis = ${JSON.stringify(analysis.custom)}::jsonb,
               has_transcript = ${turns.length > 0}::boolean AND calls.transcript_deleted_at IS NULL,
               summary = CASE WHEN calls.transcript_deleted_at IS NULL THEN ${analysis.summary}::text END,
               search = CASE WHEN calls.transcript_deleted_at IS NULL
                             THEN to_tsvector(${SEARCH_CONFIG}::regconfig, ${document}) END
          FROM prev
         WHERE calls.id = prev.id
        RETURNING calls.id, true AS replaces_turns, calls.transcript_deleted_at IS NULL AS keeps_transcript
      ),
      ${writeTurns(turns)}
      dropped AS (
        INSERT INTO pending_object_deletions (key, call_id)
        SELECT ${droppedRecording}::text, id FROM call WHERE ${droppedRecording}::text IS NOT NULL
        ON CONFLICT (key) DO NOTHING
      ),
      outbox AS (
        INSERT INTO outbox_events (id, type, payload, headers)
        SELECT ${updated.id}::uuid, ${updated.type},
               jsonb_set(jsonb_set(${JSON.stringify(updated.payload)}::jsonb, '{data,previous_status}', to_jsonb(prev.status)),
                         '{data,previous_duration_sec}', to_jsonb(prev.duration_sec)),
               ${JSON.stringify(updated.headers)}::jsonb
          FROM prev JOIN call USING (id)
        ON CONFLICT (id) DO NOTHING
      )
      SELECT prev.status AS previous_status, prev.duration_sec AS previous_duration_sec FROM prev JOIN call USING (id)`.execute(
      this.prisma.$kysely(),
    );
    return rows[0] ?? null;
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

/**
 * One statement that writes a call, its transcript and its outbox row only if `report` (an INSERT or UPDATE of
 * `call_reports` returning `call_sid`) returned a row, and answers that row. Data-modifying CTEs run as one
 * statement: all of it commits, or none of it. `droppedRecording`: a stored recording the account's storage mode does
 * not keep, queued for deletion in the same statement (docs/call-data.md).
 */
function recordCallOnce(
  report: RawBuilder<CallSid>,
  call: NewReport,
  owner: NumberOwnershipState,
  analysis: CallAnalysisView,
  outbox: OutboxRow[],
  droppedRecording: string | null,
): RawBuilder<RecordedCall> {
  const turns = call.details.transcript ?? [];
  const document = searchDocument(analysis.summary, turns);
  const recording = call.recording;
  const lost = call.details.lost_item ?? null;
  // The lost-item report, when there is one, goes with its call (docs/adr/0079): `WHERE` keeps the row out otherwise.
  const lostItem = sql`
    lost_item AS (
      INSERT INTO lost_item_reports (call_sid, account_id, number_id, caller, caller_name, category, description, color, where_lost, lost_at)
      SELECT call_sid, ${owner.account_id}, ${owner.number_id}, ${call.details.caller}, ${lost?.caller_name ?? ''}, ${lost?.category ?? ''},
             ${lost?.description ?? ''}, ${lost?.color ?? ''}, ${lost?.where_lost ?? ''}, ${lost?.lost_at ?? ''}
        FROM report WHERE ${lost !== null}::boolean
    ),`;
  return sql<RecordedCall>`
    WITH report AS (${report}),
    call AS (
      INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec, started_at,
                         has_transcript, recording_key, recording_size, recording_etag, recording_content_type,
                         summary, sentiment, successful, custom_analysis, search)
      SELECT call_sid, ${owner.account_id}, ${owner.number_id}, ${owner.phone_number}, ${call.details.caller}, ${call.details.direction},
             ${call.details.status}, ${call.details.outcome}, ${call.details.duration_sec}::int, ${call.started_at.toISOString()}::timestamptz,
             ${turns.length > 0}::boolean, ${recording?.key ?? null}, ${recording?.size ?? null}::int, ${recording?.etag ?? null},
             ${recording?.content_type ?? null}, ${analysis.summary}, ${analysis.sentiment}, ${analysis.successful}::boolean,
             ${JSON.stringify(analysis.custom)}::jsonb, to_tsvector(${SEARCH_CONFIG}::regconfig, ${document})
        FROM report
      -- The call in progress the live path wrote (docs/live-calls.md) becomes the call the report says, whatever the
      -- live path had of it.
      ON CONFLICT (id) DO UPDATE SET ${CALL_FROM_REPORT}
       WHERE calls.status = ${CALL_IN_PROGRESS}
      -- xmax is not 0 on a row this statement updated rather than inserted: the call was in progress.
      RETURNING id, account_id, (xmax <> 0) AS replaces_turns, transcript_deleted_at IS NULL AS keeps_transcript
    ),
    ${writeTurns(turns)}
    ended_seq AS (${takeLiveEventSeqs(sql`SELECT account_id, 1::bigint FROM call WHERE replaces_turns`)}),
    ended AS (
      INSERT INTO live_call_events AS e (account_id, seq, call_id, type, data)
      SELECT call.account_id, ended_seq.last_seq, call.id, 'ended', jsonb_build_object('call_id', call.id,
             'status', ${call.details.status}::text, 'duration_sec', ${call.details.duration_sec}::int)
        FROM call, ended_seq WHERE call.replaces_turns
      RETURNING ${LIVE_EVENT_COLUMNS}
    ),
    ${lostItem}
    dropped AS (
      INSERT INTO pending_object_deletions (key, call_id)
      SELECT ${droppedRecording}::text, call_sid FROM report WHERE ${droppedRecording}::text IS NOT NULL
      ON CONFLICT (key) DO NOTHING
    ),
    outbox AS (
      INSERT INTO outbox_events (id, type, payload, headers)
      SELECT row.id, row.type, row.payload, row.headers
        FROM call, unnest(${outbox.map((row) => row.id)}::uuid[], ${outbox.map((row) => row.type)}::text[],
                            ${outbox.map((row) => JSON.stringify(row.payload))}::jsonb[], ${outbox.map((row) => JSON.stringify(row.headers))}::jsonb[])
             AS row(id, type, payload, headers)
    )
    SELECT id AS call_sid, (SELECT to_jsonb(ended) FROM ended) AS ended FROM call`;
}

/**
 * The columns a report sets on the call it overwrites (the live path's call in progress, or an incomplete call it
 * corrects): all it says, but a transcript deleted while the call went on stays deleted, summary and search included.
 */
const CALL_FROM_REPORT = sql`
  account_id = EXCLUDED.account_id, number_id = EXCLUDED.number_id, phone_number = EXCLUDED.phone_number,
  caller = EXCLUDED.caller, direction = EXCLUDED.direction, status = EXCLUDED.status, outcome = EXCLUDED.outcome,
  duration_sec = EXCLUDED.duration_sec, started_at = EXCLUDED.started_at,
  recording_key = EXCLUDED.recording_key, recording_size = EXCLUDED.recording_size,
  recording_etag = EXCLUDED.recording_etag, recording_content_type = EXCLUDED.recording_content_type,
  sentiment = EXCLUDED.sentiment, successful = EXCLUDED.successful, custom_analysis = EXCLUDED.custom_analysis,
  has_transcript = EXCLUDED.has_transcript AND calls.transcript_deleted_at IS NULL,
  summary = CASE WHEN calls.transcript_deleted_at IS NULL THEN EXCLUDED.summary END,
  search = CASE WHEN calls.transcript_deleted_at IS NULL THEN EXCLUDED.search END`;

/**
 * The transcript of the call the `call` CTE wrote (columns `id`, `replaces_turns`, `keeps_transcript`): its turns
 * written, over the ones the live path kept at the same positions, and the live path's turns past the report's last
 * one deleted when the report replaces them. Separate positions: the two never touch the same row.
 */
function writeTurns(turns: readonly ProviderTranscriptTurn[]): RawBuilder<unknown> {
  return sql`
    turns AS (
      INSERT INTO transcript_turns (call_id, position, role, text)
      SELECT call.id, turn.position, turn.role, turn.text
        FROM call, unnest(${turns.map((_, position) => position)}::int[], ${turns.map((turn) => turn.role)}::text[], ${turns.map((turn) => turn.text)}::text[])
             AS turn(position, role, text)
       WHERE call.keeps_transcript
      ON CONFLICT (call_id, position) DO UPDATE SET role = EXCLUDED.role, text = EXCLUDED.text
    ),
    stale_turns AS (
      DELETE FROM transcript_turns t USING call
       WHERE t.call_id = call.id AND call.replaces_turns AND t.position >= ${turns.length}::int
    ),`;
}

type CallSid = Pick<Selectable<CallReport>, 'call_sid'>;
/** What recording a call answers: its SID, and the `ended` live event when the call had been in progress. */
type RecordedCall = CallSid & { ended: LiveEventJson | null };
type LiveEventJson = Omit<LiveCallEvent, 'at'> & { at: string };

/** A recorded call (null: nothing was written, a repeat) and the `ended` event of a call that had been in progress. */
export interface Recorded {
  ended: LiveCallEvent | null;
}

function recordedOf(rows: RecordedCall[]): Recorded | null {
  if (rows.length === 0) return null;
  const ended = rows[0].ended;
  return { ended: ended ? { ...ended, at: new Date(ended.at).toISOString() } : null };
}

type CallReportRow = Selectable<CallReport>;

function toPending(row: CallReportRow): PendingReport {
  const stored = row.report as ReportDetails & { recording_content_type: string | null };
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
      lost_item: stored.lost_item ?? null,
      analysis: stored.analysis ?? null,
    },
    recording:
      row.recording_key && row.recording_size !== null && row.recording_etag
        ? {
            key: row.recording_key,
            size: row.recording_size,
            etag: row.recording_etag,
            content_type: stored.recording_content_type ?? 'audio/mpeg',
          }
        : null,
  };
}
