import { Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../generated/kysely/database';
import { CallsMediaPrisma, CallsMediaTransactions } from '../prisma/calls-media-prisma';

/** What a deletion found: no such call of the account, nothing left to delete, or deleted now. */
export type DeletionResult = 'not_found' | 'already_deleted' | 'deleted';

/** A stored object waiting for its deletion (`pending_object_deletions`). */
export interface PendingDeletion {
  key: string;
  call_id: string;
}

/**
 * Only one replica sweeps at a time: each batch's transaction takes this advisory lock first, and a replica that
 * cannot take it leaves the sweep to the one that holds it (its batches are already under way).
 */
const RETENTION_SWEEP_LOCK = 0x5b_7e_7e_01;

/** How long a drain holds the keys it claimed: far longer than deleting 100 objects takes. */
const CLAIM_SECONDS = 300;

/**
 * Deleting calls' recordings and transcripts, by request and by retention (docs/call-data.md). Each deletion is one
 * statement: the call lets go of its recording and the key is queued in `pending_object_deletions` together, so a
 * crash at any point leaves either the call pointing at a stored object or a queued key, never a call pointing at
 * nothing nor an object nobody will delete. Objects are then deleted from storage by `drain`.
 */
@Injectable()
export class CallDataDeletionsRepository {
  constructor(
    private readonly prisma: CallsMediaPrisma,
    private readonly transactions: CallsMediaTransactions,
  ) {}

  /** The account's call lets go of its recording, which is queued for deletion. */
  async deleteRecording(
    accountId: string,
    callId: string,
    deletedBy: string,
    at: Date,
  ): Promise<{ result: DeletionResult; key: string | null }> {
    const { rows } = await sql<{ found: boolean; key: string | null }>`
      WITH target AS (
        SELECT id, recording_key FROM calls WHERE id = ${callId} AND account_id = ${accountId} FOR UPDATE
      ),
      cleared AS (
        UPDATE calls SET recording_key = NULL, recording_size = NULL, recording_etag = NULL,
                         recording_deleted_at = ${at.toISOString()}::timestamptz, recording_deleted_by = ${deletedBy}
          FROM target WHERE calls.id = target.id AND target.recording_key IS NOT NULL
        RETURNING target.recording_key AS key, calls.id
      ),
      queued AS (
        INSERT INTO pending_object_deletions (key, call_id) SELECT key, id FROM cleared ON CONFLICT (key) DO NOTHING
      )
      SELECT true AS found, (SELECT key FROM cleared) AS key FROM target`.execute(this.prisma.$kysely());
    if (rows.length === 0) return { result: 'not_found', key: null };
    return rows[0].key ? { result: 'deleted', key: rows[0].key } : { result: 'already_deleted', key: null };
  }

  /** The account's call loses its transcript turns, its summary and its search text. */
  async deleteTranscript(accountId: string, callId: string, deletedBy: string, at: Date): Promise<DeletionResult> {
    const { rows } = await sql<{ deleted: boolean }>`
      WITH target AS (
        SELECT id, (transcript_deleted_at IS NULL AND (has_transcript OR summary IS NOT NULL)) AS present
          FROM calls WHERE id = ${callId} AND account_id = ${accountId} FOR UPDATE
      ),
      turns AS (
        DELETE FROM transcript_turns USING target WHERE transcript_turns.call_id = target.id AND target.present
      ),
      cleared AS (
        UPDATE calls SET has_transcript = false, summary = NULL, search = NULL,
                         transcript_deleted_at = ${at.toISOString()}::timestamptz, transcript_deleted_by = ${deletedBy}
          FROM target WHERE calls.id = target.id AND target.present
        RETURNING calls.id
      )
      SELECT EXISTS (SELECT 1 FROM cleared) AS deleted FROM target`.execute(this.prisma.$kysely());
    if (rows.length === 0) return 'not_found';
    return rows[0].deleted ? 'deleted' : 'already_deleted';
  }

  /**
   * One batch of the retention sweep for recordings: up to `limit` calls whose recording is older than their account's
   * `recordings_days` at `now` let go of it, their keys queued. Answers how many, or null when another replica holds
   * the sweep's lock. Rows another transaction holds are skipped, never waited for.
   */
  async expireRecordings(now: Date, limit: number): Promise<number | null> {
    return this.underSweepLock(async (tx) => {
      const { rows } = await sql<{ count: number }>`
        WITH expired AS (
          SELECT c.id, c.recording_key
            FROM account_data_settings s
            CROSS JOIN LATERAL (
              SELECT id, recording_key FROM calls
               WHERE account_id = s.account_id AND recording_key IS NOT NULL
                 AND started_at < ${now.toISOString()}::timestamptz - make_interval(days => s.recordings_days)
               ORDER BY started_at LIMIT ${limit}::int
                 FOR UPDATE SKIP LOCKED
            ) AS c
           WHERE s.recordings_days IS NOT NULL
           LIMIT ${limit}::int
        ),
        cleared AS (
          UPDATE calls SET recording_key = NULL, recording_size = NULL, recording_etag = NULL,
                           recording_deleted_at = ${now.toISOString()}::timestamptz, recording_deleted_by = 'retention'
            FROM expired WHERE calls.id = expired.id
          RETURNING expired.recording_key AS key, calls.id
        ),
        queued AS (
          INSERT INTO pending_object_deletions (key, call_id) SELECT key, id FROM cleared ON CONFLICT (key) DO NOTHING
        )
        SELECT count(*)::int AS count FROM cleared`.execute(tx);
      return rows[0]?.count ?? 0;
    });
  }

  /** As `expireRecordings`, for transcripts and summaries past `transcripts_days`. */
  async expireTranscripts(now: Date, limit: number): Promise<number | null> {
    return this.underSweepLock(async (tx) => {
      const { rows } = await sql<{ count: number }>`
        WITH expired AS (
          SELECT c.id
            FROM account_data_settings s
            CROSS JOIN LATERAL (
              SELECT id FROM calls
               WHERE account_id = s.account_id
                 AND transcript_deleted_at IS NULL AND (has_transcript OR summary IS NOT NULL)
                 AND started_at < ${now.toISOString()}::timestamptz - make_interval(days => s.transcripts_days)
               ORDER BY started_at LIMIT ${limit}::int
                 FOR UPDATE SKIP LOCKED
            ) AS c
           WHERE s.transcripts_days IS NOT NULL
           LIMIT ${limit}::int
        ),
        turns AS (
          DELETE FROM transcript_turns USING expired WHERE transcript_turns.call_id = expired.id
        ),
        cleared AS (
          UPDATE calls SET has_transcript = false, summary = NULL, search = NULL,
                           transcript_deleted_at = ${now.toISOString()}::timestamptz, transcript_deleted_by = 'retention'
            FROM expired WHERE calls.id = expired.id
          RETURNING calls.id
        )
        SELECT count(*)::int AS count FROM cleared`.execute(tx);
      return rows[0]?.count ?? 0;
    });
  }

  /**
   * Claims up to `limit` queued keys after `after` (in key order; `only`: among these) for `CLAIM_SECONDS`: a drain on
   * another replica skips them meanwhile, and a drain that died with them is taken over once the claim has run out.
   */
  async claim(limit: number, options: { after?: string; only?: string[] } = {}): Promise<PendingDeletion[]> {
    const { rows } = await sql<PendingDeletion>`
      UPDATE pending_object_deletions SET claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS}::int)
       WHERE key IN (
         SELECT key FROM pending_object_deletions
          WHERE (claimed_until IS NULL OR claimed_until < now())
            ${options.after !== undefined ? sql`AND key > ${options.after}` : sql``}
            ${options.only ? sql`AND key = ANY(${options.only}::text[])` : sql``}
          ORDER BY key LIMIT ${limit}::int
            FOR UPDATE SKIP LOCKED)
      RETURNING key, call_id`.execute(this.prisma.$kysely());
    return rows.sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  /** The object is gone from storage: its key leaves the queue. */
  async deleted(key: string): Promise<void> {
    await this.prisma.pendingObjectDeletion.deleteMany({ where: { key } });
  }

  /** Storage refused: the key stays queued, unclaimed, with the error, for the next drain. */
  async failed(key: string, error: string): Promise<void> {
    await this.prisma.pendingObjectDeletion.updateMany({
      where: { key },
      data: { attempts: { increment: 1 }, last_error: error.slice(0, 500), claimed_until: null },
    });
  }

  private underSweepLock(work: (db: Kysely<DB>) => Promise<number>): Promise<number | null> {
    return this.transactions.run(async (tx) => {
      const { rows } = await sql<{ locked: boolean }>`
        SELECT pg_try_advisory_xact_lock(${RETENTION_SWEEP_LOCK}::bigint) AS locked`.execute(tx.$kysely());
      if (!rows[0]?.locked) return null;
      // The planner's cost estimate of the lateral scan over thousands of accounts' settings turns on JIT, which
      // cost 70-100 ms per statement on 2M calls and bought nothing for a 500-row batch (docs/capacity.md).
      await sql`SET LOCAL jit = off`.execute(tx.$kysely());
      return work(tx.$kysely());
    });
  }
}
