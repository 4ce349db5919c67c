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
  outcomes?: string[];
  direction?: string;
  status?: string;
  caller?: string;
  minDuration?: number;
  maxDuration?: number;
  sentiment?: string;
  successful?: boolean;
  hasRecording?: boolean;
  /** Web-search syntax, matched against `search` (summary and transcript) with `websearch_to_tsquery`. */
  q?: string;
}

export interface CallPageFilter extends CallFilter {
  /** Only calls after this one in the list's order (newest first). */
  after?: { started_at: Date; seq: bigint };
}

/** The text-search configuration of `calls.search` and of every query matched against it. */
export const SEARCH_CONFIG = 'english';
/** The longest document indexed for a call (summary and transcript): past it, words are not searchable. */
export const MAX_SEARCH_DOCUMENT_LENGTH = 200_000;
/** What `q` searches of a call (and its match passage reads): the summary, then the turns, cut at the maximum. */
export function searchDocument(summary: string | null, turns: readonly { text: string }[]): string {
  return [summary ?? '', ...turns.map((turn) => turn.text)].join('\n').slice(0, MAX_SEARCH_DOCUMENT_LENGTH);
}

/**
 * Marks ts_headline puts around a matched word: control characters no transcript holds (callers' words are text), so
 * the service can escape the snippet as HTML and only then turn them into `<mark>` and `</mark>`.
 */
export const MATCH_START = '\u0002';
export const MATCH_STOP = '\u0003';
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_STOP}, MaxWords=24, MinWords=8, ShortWord=2, MaxFragments=1, FragmentDelimiter=" ... "`;

/** A statement over the calls table that the filters narrow (the page and its count). */
type CallsQuery = ReturnType<typeof callsPageStatement>;

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
  'summary',
  'sentiment',
  'successful',
  'custom_analysis',
  'recording_deleted_at',
  'recording_deleted_by',
  'transcript_deleted_at',
  'transcript_deleted_by',
] as const;

/**
 * The statement behind every `GET /v1/calls` page without filters, newest first (exported for the benchmark's floor,
 * tools/bench: ADR 0099); `list` adds its filters to it.
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

/** Whether any filter but the account is given (the cursor aside). */
function hasFilters(filter: CallPageFilter): boolean {
  for (const key in filter) {
    if (key !== 'accountId' && key !== 'after' && filter[key as keyof CallPageFilter] !== undefined) return true;
  }
  return false;
}

/**
 * The statement narrowed by every filter given (null when none is: the unfiltered first page is prebuilt). Only the
 * filters given appear, so each combination is one statement text, planned for the index it can use.
 */
function filtered(query: CallsQuery, filter: CallFilter): CallsQuery | null {
  let narrowed = query;
  let any = false;
  const where = (next: CallsQuery) => {
    narrowed = next;
    any = true;
  };
  if (filter.numberId) where(narrowed.where('number_id', '=', filter.numberId));
  if (filter.since) where(narrowed.where('started_at', '>=', sql<Date>`${filter.since.toISOString()}::timestamptz`));
  if (filter.until) where(narrowed.where('started_at', '<', sql<Date>`${filter.until.toISOString()}::timestamptz`));
  if (filter.outcomes?.length === 1) where(narrowed.where('outcome', '=', filter.outcomes[0]));
  else if (filter.outcomes && filter.outcomes.length > 1)
    where(narrowed.where('outcome', '=', sql<string>`ANY(${filter.outcomes}::text[])`));
  if (filter.direction !== undefined) where(narrowed.where('direction', '=', filter.direction));
  if (filter.status !== undefined) where(narrowed.where('status', '=', filter.status));
  if (filter.caller !== undefined) where(narrowed.where('caller', '=', filter.caller));
  if (filter.minDuration !== undefined) where(narrowed.where('duration_sec', '>=', filter.minDuration));
  if (filter.maxDuration !== undefined) where(narrowed.where('duration_sec', '<=', filter.maxDuration));
  if (filter.sentiment !== undefined) where(narrowed.where('sentiment', '=', filter.sentiment));
  if (filter.successful !== undefined) where(narrowed.where('successful', '=', filter.successful));
  if (filter.hasRecording !== undefined)
    where(narrowed.where('recording_key', filter.hasRecording ? 'is not' : 'is', null));
  if (filter.q !== undefined)
    where(narrowed.where(sql<boolean>`search @@ websearch_to_tsquery(${SEARCH_CONFIG}::regconfig, ${filter.q})`));
  return any ? narrowed : null;
}

/** What `GET /v1/calls/stats` groups by, as the column (or the UTC day of `started_at`). */
export type CallStatsKey = 'day' | 'outcome' | 'sentiment' | 'number_id';

/** One group of the stats statement (with `day`, one per day and outcome). `seconds` is a bigint sum. */
export interface CallStatsRow {
  group: string;
  outcome: string | null;
  calls: number;
  seconds: number | string | bigint;
  judged: number;
  succeeded: number;
}

/** A day of the account's calls, as the usage statement answers it (`seconds` is a bigint sum). */
interface DailyUsageRow {
  date: string;
  calls: number;
  seconds: number | string | bigint;
}

/**
 * Calls and talk seconds per UTC day, for the `days` days ending with `today` (YYYY-MM-DD), oldest first, every day
 * present. One statement: the days from generate_series, each joined to its range of the account's calls through
 * `calls_stats_idx` (account, start, duration, ...), an index-only scan; `count(duration_sec)` rather than
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
  async list(filter: CallPageFilter, limit: number): Promise<CallRecord[]> {
    // The unfiltered first page (most requests) runs prebuilt: no statement is built for it.
    if (!filter.after && !hasFilters(filter))
      return this.prisma
        .$kysely()
        .executeQuery(callsFirstPage(filter.accountId, limit))
        .then(({ rows }) => rows);
    let query = filtered(callsPageStatement(filter.accountId), filter) ?? callsPageStatement(filter.accountId);
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

  /**
   * How many calls match the filters (every page), counting at most `limit` rows: the statement stops reading once it
   * has found that many, so its cost is bounded by the cap, not by the account's size.
   */
  async count(filter: CallFilter, limit: number): Promise<number> {
    const query = filtered(callsPageStatement(filter.accountId), filter) ?? callsPageStatement(filter.accountId);
    const capped = query
      .clearSelect()
      .select(sql<number>`1`.as('one'))
      .limit(limit);
    const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM (${capped}) AS capped`.execute(
      this.prisma.$kysely(),
    );
    return rows[0]?.count ?? 0;
  }

  /**
   * For each of the calls, a short passage of its summary and transcript where `q` matched, the matched words between
   * `MATCH_START` and `MATCH_STOP` (ts_headline over the call's own text: read for one page of calls only).
   */
  async matches(callIds: string[], q: string): Promise<Map<string, string>> {
    if (callIds.length === 0) return new Map();
    const { rows } = await sql<{ id: string; match: string }>`
      SELECT c.id, ts_headline(${SEARCH_CONFIG}::regconfig,
               left(concat_ws(E'\n', c.summary, (SELECT string_agg(t.text, E'\n' ORDER BY t.position) FROM transcript_turns t WHERE t.call_id = c.id)), ${MAX_SEARCH_DOCUMENT_LENGTH}::int),
               websearch_to_tsquery(${SEARCH_CONFIG}::regconfig, ${q}), ${HEADLINE_OPTIONS}) AS match
        FROM calls c WHERE c.id = ANY(${callIds}::text[])`.execute(this.prisma.$kysely());
    return new Map(rows.map((row) => [row.id, row.match]));
  }

  /**
   * The account's calls that started in `[since, until)` counted by `key` (and, by day, by outcome too): one statement,
   * an index-only range scan of `calls_stats_idx`, which holds every column it reads.
   */
  async stats(
    filter: { accountId: string; numberId?: string; since: Date; until: Date },
    key: CallStatsKey,
  ): Promise<CallStatsRow[]> {
    // By day: grouped by the date, formatted once per group (to_char on every row cost 40% of the statement).
    const group = key === 'day' ? sql`(started_at AT TIME ZONE 'UTC')::date` : sql.ref(key);
    const { rows } = await sql<CallStatsRow>`
      SELECT ${key === 'day' ? sql`to_char(g.key, 'YYYY-MM-DD')` : sql`g.key`} AS "group", g.outcome, g.calls, g.seconds,
             g.judged, g.succeeded
        FROM (SELECT ${group} AS key, ${key === 'day' ? sql`outcome` : sql`NULL::text`} AS outcome,
                     count(*)::int AS calls, coalesce(sum(duration_sec), 0)::bigint AS seconds,
                     count(successful)::int AS judged, count(*) FILTER (WHERE successful)::int AS succeeded
                FROM calls
               WHERE account_id = ${filter.accountId}
                 AND started_at >= ${filter.since.toISOString()}::timestamptz AND started_at < ${filter.until.toISOString()}::timestamptz
                 ${filter.numberId ? sql`AND number_id = ${filter.numberId}` : sql``}
               GROUP BY 1, 2) AS g`.execute(this.prisma.$kysely());
    return rows;
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

  /** The turns of each of these calls, in order (an export chunk's transcripts, one statement). */
  async transcriptsOf(callIds: string[]): Promise<Map<string, { role: string; text: string }[]>> {
    const turns = new Map<string, { role: string; text: string }[]>();
    if (callIds.length === 0) return turns;
    const rows = await this.prisma
      .$kysely()
      .selectFrom('transcript_turns')
      .select(['call_id', 'role', 'text'])
      .where('call_id', '=', sql<string>`ANY(${callIds}::text[])`)
      .orderBy('call_id')
      .orderBy('position')
      .execute();
    for (const { call_id, role, text } of rows) {
      const list = turns.get(call_id) ?? [];
      list.push({ role, text });
      turns.set(call_id, list);
    }
    return turns;
  }

  async transcriptOf(callId: string): Promise<{ role: string; text: string }[]> {
    return this.prisma.transcriptTurn.findMany({
      where: { call_id: callId },
      orderBy: { position: 'asc' },
      select: { role: true, text: true },
    });
  }
}
