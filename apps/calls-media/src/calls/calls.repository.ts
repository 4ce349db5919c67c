import { Injectable } from '@nestjs/common';
import { prebuiltStatement } from '@switchboard/persistence';
import { sql, type Selectable } from 'kysely';
import type { Call } from '../generated/kysely/database';
import { CallsMediaPrisma, statements } from '../prisma/calls-media-prisma';

/** A call as the list and the look-up return it: every column but the arrival order's companions. */
export type CallRecord = Pick<Selectable<Call>, (typeof CALL_COLUMNS)[number]>;

export interface CallFilter {
  accountId: string;
  numberId?: string;
  since?: Date;
  until?: Date;
  /** Only calls after this one in the list's order (newest first). */
  after?: { started_at: Date; seq: bigint };
}

/** The columns of a `CallRecord`, in one place for both statements. */
const CALL_COLUMNS = [
  'id',
  'seq',
  'account_id',
  'number_id',
  'phone_number',
  'caller',
  'direction',
  'status',
  'outcome',
  'duration_sec',
  'started_at',
  'has_transcript',
  'recording_key',
  'recording_size',
  'recording_etag',
  'recording_content_type',
] as const;

/**
 * The statement behind every `GET /v1/calls` page without filters, newest first (exported for the benchmark's floor,
 * tools/bench: ADR 0072); `list` adds its filters to it.
 */
export function callsPageStatement(accountId: string) {
  return statements.selectFrom('calls').select(CALL_COLUMNS).where('account_id', '=', accountId);
}

/** The list's order and page size. */
export function ordered(query: ReturnType<typeof callsPageStatement>, limit: number) {
  return query.orderBy('started_at', 'desc').orderBy('seq', 'desc').limit(limit);
}

/** The unfiltered first page (most requests), built once. */
const callsFirstPage = prebuiltStatement(
  (accountId: string, limit: number) => ordered(callsPageStatement(accountId), limit),
  2,
);

/** A day of the account's calls, as the usage statement answers it (`seconds` is a bigint sum). */
interface DailyUsageRow {
  date: string;
  calls: number;
  seconds: number | string | bigint;
}

/**
 * Calls and talk seconds per UTC day, for the `days` days ending with `today` (YYYY-MM-DD), oldest first, every day
 * present. One statement: the days from generate_series, each joined to its range of the account's calls through
 * `calls_daily_usage_idx` (account, start, duration), an index-only scan; `count(duration_sec)` rather than
 * `count(id)` keeps it so.
 */
export function dailyUsageStatement(accountId: string, today: string, days: number) {
  return sql<DailyUsageRow>`
  SELECT to_char(d.day, 'YYYY-MM-DD') AS date, count(c.duration_sec)::int AS calls, coalesce(sum(c.duration_sec), 0)::bigint AS seconds
  FROM generate_series(${today}::date - (${days}::int - 1), ${today}::date, interval '1 day') AS d(day)
  LEFT JOIN calls c ON c.account_id = ${accountId}
    AND c.started_at >= (d.day::timestamp AT TIME ZONE 'UTC')
    AND c.started_at < ((d.day + interval '1 day')::timestamp AT TIME ZONE 'UTC')
  GROUP BY d.day
  ORDER BY d.day`;
}

/**
 * The calls list and the look-up of one call, Kysely statements through the client's `$kysely()`: the unfiltered first
 * page, behind most `GET /v1/calls` requests, is built once (`prebuiltStatement`); the transcript is Prisma's.
 */
@Injectable()
export class CallsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  /** The account's call with this id; null for an unknown id and for another account's call alike. */
  async findForAccount(accountId: string, callId: string): Promise<CallRecord | null> {
    const [row] = await this.prisma
      .$kysely()
      .selectFrom('calls')
      .select(CALL_COLUMNS)
      .where('id', '=', callId)
      .where('account_id', '=', accountId)
      .execute();
    return row ?? null;
  }

  /** Newest first (start time, then arrival order), at most `limit`. */
  async list(filter: CallFilter, limit: number): Promise<CallRecord[]> {
    if (!filter.numberId && !filter.since && !filter.until && !filter.after)
      return this.prisma
        .$kysely()
        .executeQuery(callsFirstPage(filter.accountId, limit))
        .then(({ rows }) => rows);
    let query = callsPageStatement(filter.accountId);
    // Only the filters given: one statement text per combination of filters, each planned for the index it can use.
    if (filter.numberId) {
      query = query.where('number_id', '=', filter.numberId);
    }
    if (filter.since) {
      query = query.where('started_at', '>=', sql<Date>`${filter.since.toISOString()}::timestamptz`);
    }
    if (filter.until) {
      query = query.where('started_at', '<', sql<Date>`${filter.until.toISOString()}::timestamptz`);
    }
    if (filter.after) {
      // A row comparison, which PostgreSQL uses as an index condition on (account_id, started_at DESC, seq DESC).
      query = query.where(
        sql<boolean>`(started_at, seq) < (${filter.after.started_at.toISOString()}::timestamptz, ${filter.after.seq.toString()}::bigint)`,
      );
    }
    return this.prisma
      .$kysely()
      .executeQuery(ordered(query, limit))
      .then(({ rows }) => rows);
  }

  /** See `dailyUsageStatement`. */
  async dailyUsage(
    accountId: string,
    today: string,
    days: number,
  ): Promise<{ date: string; calls: number; seconds: number }[]> {
    const { rows } = await dailyUsageStatement(accountId, today, days).execute(this.prisma.$kysely());
    return rows.map((row) => ({ date: row.date, calls: Number(row.calls), seconds: Number(row.seconds) }));
  }

  async transcriptOf(callId: string): Promise<{ role: string; text: string }[]> {
    return this.prisma.transcriptTurn.findMany({
      where: { call_id: callId },
      orderBy: { position: 'asc' },
      select: { role: true, text: true },
    });
  }
}
