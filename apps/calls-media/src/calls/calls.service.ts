import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  DEFAULT_STATS_DAYS,
  DEFAULT_USAGE_DAYS,
  EXPORT_CHUNK_MAX_BYTES,
  EXPORT_CHUNK_MAX_ROWS,
  MAX_STATS_DAYS,
  MAX_TOTAL_COUNT,
  ServiceError,
  sentimentOf,
  type CallDataDeletion,
  type CallFilterQuery,
  type CallList,
  type CallSearchResult,
  type CallStats,
  type CallStatsGroup,
  type CallStatsQuery,
  type CallView,
  type CustomAnalysisValue,
  type DailyUsage,
  type DailyUsageQuery,
  type ExportCallsChunk,
  type ExportCallsChunkQuery,
  type ExportFormat,
  type ExportInclude,
  type ListCallsQuery,
  type RecordingChunk,
  type RecordingInfo,
  type TranscriptView,
} from '@switchboard/contracts';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';
import { csvHeader, exportIncludes, exportLine } from './call-export';
import {
  CallsRepository,
  MATCH_START,
  MATCH_STOP,
  type CallFilter,
  type CallRecord,
  type CallStatsKey,
  type CallStatsRow,
} from './calls.repository';

const DAY_MS = 86_400_000;

/** Reading an account's calls, transcripts and recordings. Another account's call is answered as unknown. */
@Injectable()
export class CallsService {
  constructor(
    private readonly calls: CallsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  /**
   * A page of the account's calls, newest first, narrowed by the filters given (docs/call-search.md); with `q`, each
   * call carries the passage that matched, and with `include_total` the answer counts every page (up to a cap).
   */
  async list(accountId: string, query: ListCallsQuery): Promise<CallList> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const filter = callFilter(accountId, query);
    let after: CallRecord | null = null;
    if (query.starting_after !== undefined) {
      after = await this.calls.findForAccount(accountId, query.starting_after);
      if (!after) throw new ServiceError('invalid_request', 'starting_after is not the id of one of your calls');
    }
    const [rows, total] = await Promise.all([
      this.calls.list(
        { ...filter, after: after ? { started_at: after.started_at, seq: after.seq } : undefined },
        limit + 1,
      ),
      query.include_total ? this.calls.count(filter, MAX_TOTAL_COUNT + 1) : undefined,
    ]);
    const page = rows.slice(0, limit);
    let data: CallSearchResult[] = page.map(toView);
    if (filter.q !== undefined && page.length > 0) {
      const matches = await this.calls.matches(
        page.map((row) => row.id),
        filter.q,
      );
      data = data.map((call) => ({ ...call, match: markedSnippet(matches.get(call.id) ?? '') }));
    }
    const list: CallList = { data, has_more: rows.length > limit };
    if (total !== undefined) {
      list.total_count = Math.min(total, MAX_TOTAL_COUNT);
      list.total_count_capped = total > MAX_TOTAL_COUNT;
    }
    return list;
  }

  /**
   * `GET /v1/calls/stats`: the account's calls in `[since, until)` (default the 30 days before now) counted by day
   * (every day of the range, oldest first), outcome, sentiment or number (most calls first).
   */
  async stats(accountId: string, query: CallStatsQuery, now = new Date()): Promise<CallStats> {
    const until = query.until ? new Date(query.until) : now;
    const since = query.since ? new Date(query.since) : new Date(until.getTime() - DEFAULT_STATS_DAYS * DAY_MS);
    if (since.getTime() >= until.getTime()) throw new ServiceError('invalid_request', 'since must be before until');
    if (until.getTime() - since.getTime() > MAX_STATS_DAYS * DAY_MS) {
      throw new ServiceError('invalid_request', `since and until must be at most ${MAX_STATS_DAYS} days apart`);
    }
    const groupBy = query.group_by ?? 'day';
    const key: CallStatsKey = groupBy === 'number' ? 'number_id' : groupBy;
    const rows = await this.calls.stats(
      { accountId, numberId: query.number_id ? normalizeNumberId(query.number_id) : undefined, since, until },
      key,
    );
    if (key !== 'day') {
      const groups = rows.map((row) => statsGroup(row.group, [row]));
      return { data: groups.sort((a, b) => b.calls - a.calls || (a.group < b.group ? -1 : 1)) };
    }
    const byDay = new Map<string, CallStatsRow[]>();
    for (const row of rows) byDay.set(row.group, [...(byDay.get(row.group) ?? []), row]);
    return {
      data: utcDays(since, until).map((day) => {
        const dayRows = byDay.get(day) ?? [];
        const outcomes: Record<string, number> = {};
        for (const row of dayRows) outcomes[row.outcome ?? ''] = row.calls;
        return { ...statsGroup(day, dayRows), outcomes };
      }),
    };
  }

  /**
   * One chunk of an export (docs/call-data.md): the calls after `after` that match the list's filters, newest first,
   * formatted, up to `EXPORT_CHUNK_MAX_ROWS` calls or `EXPORT_CHUNK_MAX_BYTES`, whichever comes first. Each chunk is
   * one keyset statement, so any replica answers the next and nothing is held open between chunks.
   */
  async exportChunk(accountId: string, query: ExportCallsChunkQuery): Promise<ExportCallsChunk> {
    const include = exportIncludes(query.include);
    const filter = callFilter(accountId, query);
    const after = query.after !== undefined ? exportCursor(query.after) : undefined;
    const rows = await this.calls.list({ ...filter, after }, EXPORT_CHUNK_MAX_ROWS + 1);
    const page = rows.slice(0, EXPORT_CHUNK_MAX_ROWS);
    const turns = include.includes('transcript')
      ? await this.calls.transcriptsOf(page.filter((row) => row.has_transcript).map((row) => row.id))
      : undefined;
    let data = after ? '' : csvHeaderFor(query.format, include);
    let last: CallRecord | undefined;
    for (const row of page) {
      const line = exportLine(query.format, include, { call: toView(row), transcript: turns?.get(row.id) });
      if (last && data.length + line.length > EXPORT_CHUNK_MAX_BYTES) break;
      data += line;
      last = row;
    }
    const more = last !== undefined && (last !== page[page.length - 1] || rows.length > EXPORT_CHUNK_MAX_ROWS);
    return { data, next: more && last ? `${last.started_at.getTime()}.${last.seq}` : null };
  }

  /** The console's usage chart: the last `days` UTC days, today included, every day present. */
  async dailyUsage(accountId: string, query: DailyUsageQuery, now = new Date()): Promise<DailyUsage> {
    const days = query.days ?? DEFAULT_USAGE_DAYS;
    return { data: await this.calls.dailyUsage(accountId, now.toISOString().slice(0, 10), days) };
  }

  /** `GET /calls/{call_id}`: one call as the list shows it; another account's call is answered as unknown. */
  async get(accountId: string, callId: string): Promise<CallView> {
    const call = await this.calls.findForAccount(accountId, callId);
    if (!call) throw callNotFound();
    return toView(call);
  }

  async transcript(accountId: string, callId: string): Promise<TranscriptView> {
    const call = await this.calls.findForAccount(accountId, callId);
    if (!call) throw callNotFound();
    if (!call.has_transcript) throw new ServiceError('not_found', 'This call has no transcript.');
    return { call_sid: call.id, turns: await this.calls.transcriptOf(call.id) };
  }

  async recording(accountId: string, callId: string): Promise<RecordingInfo> {
    const { call, recording } = await this.requireRecording(accountId, callId);
    return { call_sid: call.id, content_type: recording.content_type, size: recording.size, etag: recording.etag };
  }

  /** Bytes `[offset, offset + length)` of the recording, fewer at its end, none past it. */
  async readRecording(accountId: string, callId: string, offset: number, length: number): Promise<RecordingChunk> {
    const { recording } = await this.requireRecording(accountId, callId);
    const available = Math.max(0, Math.min(length, recording.size - offset));
    const bytes = available > 0 ? await this.storage.read(recording.key, offset, available) : new Uint8Array(0);
    return { offset, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
  }

  private async requireRecording(accountId: string, callId: string) {
    const call = await this.calls.findForAccount(accountId, callId);
    if (!call) throw callNotFound();
    if (!call.recording_key || call.recording_size === null || !call.recording_etag) {
      throw new ServiceError('no_recording', 'This call has no recording.');
    }
    return {
      call,
      recording: {
        key: call.recording_key,
        size: call.recording_size,
        etag: call.recording_etag,
        content_type: call.recording_content_type ?? 'audio/mpeg',
      },
    };
  }
}

function csvHeaderFor(format: ExportFormat, include: ExportInclude[]): string {
  return format === 'csv' ? csvHeader(include) : '';
}

/** An export chunk's `after`: the last exported call's start (epoch ms) and arrival order, as `next` wrote them. */
function exportCursor(after: string): { started_at: Date; seq: bigint } {
  const match = /^(\d{1,15})\.(\d{1,19})$/.exec(after);
  if (!match) throw new ServiceError('invalid_request', 'after is not a cursor this export returned');
  return { started_at: new Date(Number(match[1])), seq: BigInt(match[2]) };
}

function callNotFound(): ServiceError {
  return new ServiceError('not_found', 'No call with that id.');
}

function normalizeNumberId(id: string): string {
  return id.startsWith('num_') ? id : `num_${id}`;
}

/** The list's filters as the repository takes them; contradictory ones are a 400 naming them. */
function callFilter(accountId: string, query: CallFilterQuery): CallFilter {
  const since = query.since ? new Date(query.since) : undefined;
  const until = query.until ? new Date(query.until) : undefined;
  if (since && until && since.getTime() > until.getTime()) {
    throw new ServiceError('invalid_request', 'since must not be after until');
  }
  if (query.min_duration !== undefined && query.max_duration !== undefined && query.min_duration > query.max_duration) {
    throw new ServiceError('invalid_request', 'min_duration must not be greater than max_duration');
  }
  return {
    accountId,
    numberId: query.number_id ? normalizeNumberId(query.number_id) : undefined,
    since,
    until,
    outcomes: query.outcome !== undefined ? [...new Set(query.outcome.split(','))] : undefined,
    direction: query.direction,
    status: query.status,
    caller: query.caller,
    minDuration: query.min_duration,
    maxDuration: query.max_duration,
    sentiment: query.sentiment,
    successful: query.successful,
    hasRecording: query.has_recording,
    q: query.q,
  };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * ts_headline's passage as the API answers it: HTML-escaped, then the matched words between `<mark>` and `</mark>`
 * (its marks are control characters, so a transcript's own `<mark>` is escaped like any other text). Whitespace,
 * line breaks between turns included, becomes single spaces.
 */
export function markedSnippet(headline: string): string {
  return headline
    .replace(/[&<>"']/g, (char) => HTML_ESCAPES[char])
    .replace(/\s+/g, ' ')
    .trim()
    .replaceAll(MATCH_START, '<mark>')
    .replaceAll(MATCH_STOP, '</mark>');
}

/** One stats group from its rows (by day, one per outcome): counts and sums added, rates rounded. */
function statsGroup(group: string, rows: CallStatsRow[]): CallStatsGroup {
  let calls = 0;
  let seconds = 0;
  let judged = 0;
  let succeeded = 0;
  for (const row of rows) {
    calls += row.calls;
    seconds += Number(row.seconds);
    judged += row.judged;
    succeeded += row.succeeded;
  }
  return {
    group,
    calls,
    minutes: Math.floor(seconds / 60),
    average_duration_sec: calls > 0 ? Math.round((seconds / calls) * 10) / 10 : null,
    success_rate: judged > 0 ? Math.round((succeeded / judged) * 1000) / 1000 : null,
  };
}

/** Every UTC day (YYYY-MM-DD) that `[since, until)` touches, oldest first. */
function utcDays(since: Date, until: Date): string[] {
  const days: string[] = [];
  const last = new Date(until.getTime() - 1).toISOString().slice(0, 10);
  for (let day = new Date(since.toISOString().slice(0, 10)); ; day = new Date(day.getTime() + DAY_MS)) {
    const text = day.toISOString().slice(0, 10);
    days.push(text);
    if (text >= last) return days;
  }
}

export function toView(call: CallRecord): CallView {
  return {
    id: call.id,
    number_id: call.number_id,
    phone_number: call.phone_number,
    caller: call.caller,
    direction: call.direction,
    status: call.status,
    outcome: call.outcome,
    duration_sec: call.duration_sec,
    started_at: call.started_at.toISOString(),
    has_recording: call.recording_key !== null,
    has_transcript: call.has_transcript,
    analysis: {
      summary: call.summary,
      sentiment: sentimentOf(call.sentiment),
      successful: call.successful,
      custom: (call.custom_analysis ?? {}) as Record<string, CustomAnalysisValue>,
    },
    recording_deletion: deletionOf(call.recording_deleted_at, call.recording_deleted_by),
    transcript_deletion: deletionOf(call.transcript_deleted_at, call.transcript_deleted_by),
  };
}

function deletionOf(at: Date | null, by: string | null): CallDataDeletion | null {
  return at ? { deleted_at: at.toISOString(), deleted_by: by ?? 'retention' } : null;
}
