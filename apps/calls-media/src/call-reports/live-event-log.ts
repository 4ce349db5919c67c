import { sql, type RawBuilder } from 'kysely';

// The live event log's SQL (docs/live-calls.md), here because the end report writes a call's `ended` event with its
// call (call-reports.repository.ts) and live-calls, which uses call-reports, writes the rest.

/**
 * The columns of a live event (table alias `e`) as a `LiveCallEvent`: its id is the account's `seq`, as text (a bigint
 * beyond JavaScript's numbers, in time). Order by `e.seq`: a bare `id` would name this text column, and sort 10 before 9.
 */
export const LIVE_EVENT_COLUMNS = sql.raw('e.seq::text AS id, e.account_id, e.call_id, e.type, e.data, e.at');

/**
 * Takes the next `count` ids of an account's live events, `source` being `SELECT account_id, count` (no row: none
 * taken): the account's `live_event_sequences` row is locked until the statement commits, so the account's events
 * commit in id order with no gap, whatever runs at once (docs/live-calls.md). Answers `last_seq`, the last id taken.
 * Every statement takes it after its other row locks (the call's), so two never wait on each other in a circle.
 */
export function takeLiveEventSeqs(source: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    INSERT INTO live_event_sequences AS s (account_id, last_seq) ${source}
    ON CONFLICT (account_id) DO UPDATE SET last_seq = s.last_seq + EXCLUDED.last_seq
    RETURNING last_seq`;
}
