import { Inject, Injectable } from '@nestjs/common';
import type { SqlPool } from '@switchboard/persistence';
import { CALLS_SQL } from '../config/tokens';
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

/** The columns of a `CallRecord`, in one place for both statements. */
const CALL_COLUMNS =
  'id, seq, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec, started_at, ' +
  'has_transcript, recording_key, recording_size, recording_etag, recording_content_type';

export const DAILY_USAGE = `
  SELECT to_char(d.day, 'YYYY-MM-DD') AS date, count(c.duration_sec)::int AS calls, coalesce(sum(c.duration_sec), 0)::bigint AS seconds
  FROM generate_series($2::date - ($3::int - 1), $2::date, interval '1 day') AS d(day)
  LEFT JOIN calls c ON c.account_id = $1
    AND c.started_at >= (d.day::timestamp AT TIME ZONE 'UTC')
    AND c.started_at < ((d.day + interval '1 day')::timestamp AT TIME ZONE 'UTC')
  GROUP BY d.day
  ORDER BY d.day`;

/** A row as the driver returns it: `seq` (bigint) is a string from `pg`, a bigint from Prisma's raw query (PGlite). */
type CallRow = Omit<CallRecord, 'seq'> & { seq: string | bigint };

/**
 * The calls list and the look-up of one call. Both run as plain SQL on the app's `SqlPool`: they are the statements
 * behind every `GET /v1/calls` page (docs/performance.md); the transcript stays on Prisma.
 */
@Injectable()
export class CallsRepository {
  constructor(
    private readonly prisma: CallsMediaPrisma,
    @Inject(CALLS_SQL) private readonly sql: SqlPool,
  ) {}

  /** The account's call with this id; null for an unknown id and for another account's call alike. */
  async findForAccount(accountId: string, callId: string): Promise<CallRecord | null> {
    const [row] = await this.sql.query<CallRow>({
      name: 'calls_find_for_account',
      text: `SELECT ${CALL_COLUMNS} FROM calls WHERE id = $1 AND account_id = $2`,
      values: [callId, accountId],
    });
    return row ? toCallRecord(row) : null;
  }

  /** Newest first (start time, then arrival order), at most `limit`. */
  async list(filter: CallFilter, limit: number): Promise<CallRecord[]> {
    const values: unknown[] = [filter.accountId];
    const param = (value: unknown) => `$${values.push(value)}`;
    const conditions = ['account_id = $1'];
    // One statement text (and prepared statement) per combination of filters, each planned for the index it can use.
    let shape = '';
    if (filter.numberId) {
      conditions.push(`number_id = ${param(filter.numberId)}`);
      shape += 'n';
    }
    if (filter.since) {
      conditions.push(`started_at >= ${param(filter.since.toISOString())}::timestamptz`);
      shape += 's';
    }
    if (filter.until) {
      conditions.push(`started_at < ${param(filter.until.toISOString())}::timestamptz`);
      shape += 'u';
    }
    if (filter.after) {
      conditions.push(`(started_at, seq) < (${param(filter.after.started_at.toISOString())}::timestamptz, ${param(filter.after.seq.toString())}::bigint)`);
      shape += 'a';
    }
    const rows = await this.sql.query<CallRow>({
      name: `calls_list_${shape || 'all'}`,
      text: `SELECT ${CALL_COLUMNS} FROM calls WHERE ${conditions.join(' AND ')} ORDER BY started_at DESC, seq DESC LIMIT ${param(limit)}`,
      values,
    });
    return rows.map(toCallRecord);
  }

  /**
   * Calls and talk seconds per UTC day, for the `days` days ending with `today` (YYYY-MM-DD), oldest first, every day
   * present. One statement: the days from generate_series, each joined to its range of the account's calls through
   * `calls_daily_usage_idx` (account, start, duration), an index-only scan; `count(duration_sec)` rather than
   * `count(id)` keeps it so.
   */
  async dailyUsage(accountId: string, today: string, days: number): Promise<{ date: string; calls: number; seconds: number }[]> {
    const rows = await this.sql.query<{ date: string; calls: number | string; seconds: number | string | bigint }>({
      name: 'calls_daily_usage',
      text: DAILY_USAGE,
      values: [accountId, today, days],
    });
    return rows.map((row) => ({ date: row.date, calls: Number(row.calls), seconds: Number(row.seconds) }));
  }

  async transcriptOf(callId: string): Promise<{ role: string; text: string }[]> {
    return this.prisma.transcriptTurn.findMany({ where: { call_id: callId }, orderBy: { position: 'asc' }, select: { role: true, text: true } });
  }
}

function toCallRecord(row: CallRow): CallRecord {
  return { ...row, seq: BigInt(row.seq) };
}
