import { Injectable } from '@nestjs/common';
import {
  CALL_IN_PROGRESS,
  DEFAULT_MAX_CALL_MINUTES,
  LIVE_EVENTS_PAGE,
  type LiveCallEvent,
  type LiveCallEventType,
  type LiveCallStatusData,
} from '@switchboard/contracts';
import type { OutboxRow } from '@switchboard/messaging';
import { sql } from 'kysely';
import { LIVE_EVENT_COLUMNS, takeLiveEventSeqs } from '../call-reports/live-event-log';
import type { NumberOwnershipState } from '../number-ownership/attribution';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';
import type { ProviderCallStart, ProviderTranscriptTurn } from '../telephony/provider-call-report';

/** An in-progress call past its number's `max_call_minutes`: what the incomplete close needs of it. */
export interface OverdueCall {
  id: string;
  phone_number: string;
  caller: string;
  direction: string;
  started_at: Date;
  /** The last live event heard of it (its start when nothing followed): the duration the call is known to have. */
  last_heard_at: Date;
  /** Its number's `max_call_minutes` (or the default): no call is known to last longer. */
  max_call_minutes: number;
  turns: ProviderTranscriptTurn[];
}

/** A live event row as the statements return it. */
interface LiveEventRow {
  id: string;
  account_id: string;
  call_id: string;
  type: LiveCallEventType;
  data: LiveCallEvent['data'];
  at: Date;
}

const EVENT_COLUMNS = LIVE_EVENT_COLUMNS;

/**
 * Calls while they happen (docs/live-calls.md): the `calls` row of a call in progress, its turns as they come, and the
 * log of live events the streams replay. Each write is one statement, and writes nothing once the call has its end
 * (the end report is the record: it overwrites what the live path wrote, docs/live-calls.md "Reliability").
 */
@Injectable()
export class LiveCallsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  /**
   * The call in progress, its `call.started` outbox row and its `status` live event, in one statement; nothing when
   * the call is already there (a repeated start) or its end report came first (`call_reports` has it: end before
   * start). The end report's insert of the same call waits for this one's row, or this one for its: one of the two
   * writes the row, never both.
   */
  async start(start: ProviderCallStart, owner: NumberOwnershipState, outbox: OutboxRow): Promise<LiveCallEvent[]> {
    const status: LiveCallStatusData = {
      call_id: start.call_sid,
      number_id: owner.number_id,
      caller: start.caller,
      direction: start.direction,
      status: CALL_IN_PROGRESS,
      started_at: start.started_at.toISOString(),
    };
    const { rows } = await sql<LiveEventRow>`
      WITH call AS (
        INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec,
                           started_at, has_transcript)
        SELECT ${start.call_sid}, ${owner.account_id}, ${owner.number_id}, ${owner.phone_number}, ${start.caller},
               ${start.direction}, ${CALL_IN_PROGRESS}, ${CALL_IN_PROGRESS}, 0, ${start.started_at.toISOString()}::timestamptz, false
         WHERE NOT EXISTS (SELECT 1 FROM call_reports WHERE call_sid = ${start.call_sid})
        ON CONFLICT (id) DO NOTHING
        RETURNING id, account_id
      ),
      outbox AS (
        INSERT INTO outbox_events (id, type, payload, headers)
        SELECT ${outbox.id}::uuid, ${outbox.type}, ${JSON.stringify(outbox.payload)}::jsonb, ${JSON.stringify(outbox.headers)}::jsonb
          FROM call
        ON CONFLICT (id) DO NOTHING
      ),
      seq AS (${takeLiveEventSeqs(sql`SELECT account_id, 1::bigint FROM call`)})
      INSERT INTO live_call_events AS e (account_id, seq, call_id, type, data)
      SELECT call.account_id, seq.last_seq, call.id, 'status', ${JSON.stringify(status)}::jsonb FROM call, seq
      RETURNING ${EVENT_COLUMNS}`.execute(this.prisma.$kysely());
    return rows.map(toEvent);
  }

  /**
   * The turns not yet kept of a call in progress, and one `turn` live event each, in one statement: the call's row is
   * locked first, so a turn racing the end report either lands before it (and is overwritten by the report's
   * transcript) or finds the call ended and writes nothing. A turn already kept (a provider's repeat) is skipped, as
   * is every turn of a call whose transcript was deleted while it went on.
   */
  async addTurns(
    callSid: string,
    turns: readonly (ProviderTranscriptTurn & { position: number })[],
  ): Promise<LiveCallEvent[]> {
    if (turns.length === 0) return [];
    const { rows } = await sql<LiveEventRow>`
      WITH live AS (
        SELECT id, account_id FROM calls
         WHERE id = ${callSid} AND status = ${CALL_IN_PROGRESS} AND transcript_deleted_at IS NULL
           FOR UPDATE
      ),
      added AS (
        INSERT INTO transcript_turns (call_id, position, role, text)
        SELECT live.id, turn.position, turn.role, turn.text
          FROM live, unnest(${turns.map((t) => t.position)}::int[], ${turns.map((t) => t.role)}::text[],
                            ${turns.map((t) => t.text)}::text[]) AS turn(position, role, text)
        ON CONFLICT (call_id, position) DO NOTHING
        RETURNING call_id, position, role, text
      ),
      flagged AS (
        UPDATE calls SET has_transcript = true
         WHERE id = (SELECT id FROM live) AND NOT has_transcript AND EXISTS (SELECT 1 FROM added)
      ),
      seq AS (${takeLiveEventSeqs(sql`SELECT live.account_id, count(*)::bigint FROM live, added GROUP BY live.account_id`)})
      INSERT INTO live_call_events AS e (account_id, seq, call_id, type, data)
      SELECT live.account_id, seq.last_seq - count(*) OVER () + row_number() OVER (ORDER BY added.position), added.call_id,
             'turn', jsonb_build_object('call_id', added.call_id, 'position', added.position, 'role', added.role, 'text', added.text)
        FROM live, seq, added
      RETURNING ${EVENT_COLUMNS}`.execute(this.prisma.$kysely());
    return rows.map(toEvent).sort(byId);
  }

  /** A call in progress: its account and how many turns it has kept (the next one's position); null otherwise. */
  async liveCallOf(callSid: string): Promise<{ account_id: string; turns: number } | null> {
    const { rows } = await sql<{ account_id: string; turns: number }>`
      SELECT c.account_id, (SELECT count(*) FROM transcript_turns t WHERE t.call_id = c.id)::int AS turns
        FROM calls c WHERE c.id = ${callSid} AND c.status = ${CALL_IN_PROGRESS}`.execute(this.prisma.$kysely());
    return rows[0] ?? null;
  }

  /**
   * The account's live events after `after`, oldest first, at most LIVE_EVENTS_PAGE (and whether more follow). For
   * one call, its events; for all, from the start (`after` 0) the events of the calls in progress now, and on a
   * resume every event since, the ends of calls that ended meanwhile included.
   */
  async since(
    accountId: string,
    query: { callId?: string; after: bigint },
  ): Promise<{ events: LiveCallEvent[]; hasMore: boolean; lastId: string }> {
    const after = query.after.toString();
    const limit = LIVE_EVENTS_PAGE + 1;
    const db = this.prisma.$kysely();
    // Read first: every event up to it is committed (ids are taken in commit order), so the page below has them all.
    const { rows: counter } = await sql<{ last_seq: string }>`
      SELECT last_seq::text AS last_seq FROM live_event_sequences WHERE account_id = ${accountId}`.execute(db);
    const { rows } = query.callId
      ? await sql<LiveEventRow>`
          SELECT ${EVENT_COLUMNS} FROM live_call_events e
           WHERE e.call_id = ${query.callId} AND e.account_id = ${accountId} AND e.seq > ${after}::bigint
           ORDER BY e.seq LIMIT ${limit}`.execute(db)
      : query.after === 0n
        ? await sql<LiveEventRow>`
            SELECT ${EVENT_COLUMNS} FROM live_call_events e
             WHERE e.account_id = ${accountId}
               AND e.call_id IN (SELECT id FROM calls WHERE account_id = ${accountId} AND status = ${CALL_IN_PROGRESS})
             ORDER BY e.seq LIMIT ${limit}`.execute(db)
        : await sql<LiveEventRow>`
            SELECT ${EVENT_COLUMNS} FROM live_call_events e
             WHERE e.account_id = ${accountId} AND e.seq > ${after}::bigint
             ORDER BY e.seq LIMIT ${limit}`.execute(db);
    return {
      events: rows.slice(0, LIVE_EVENTS_PAGE).map(toEvent),
      hasMore: rows.length > LIVE_EVENTS_PAGE,
      lastId: counter[0]?.last_seq ?? '0',
    };
  }

  /** The call's status, duration and start, when the account has it; null otherwise. */
  async callOf(
    accountId: string,
    callId: string,
  ): Promise<{ status: string; duration_sec: number; started_at: Date } | null> {
    const { rows } = await sql<{ status: string; duration_sec: number; started_at: Date }>`
      SELECT status, duration_sec, started_at FROM calls WHERE id = ${callId} AND account_id = ${accountId}`.execute(
      this.prisma.$kysely(),
    );
    return rows[0] ?? null;
  }

  /**
   * Calls still in progress `max_call_minutes` (their number's newest state, else the default) after they started,
   * as of `now`, oldest first, with the turns they have: the incomplete close's work. Reads the in-progress index only.
   */
  async overdue(now: Date, limit: number): Promise<OverdueCall[]> {
    const { rows } = await sql<Omit<OverdueCall, 'turns'> & { turns: ProviderTranscriptTurn[] | null }>`
      SELECT c.id, c.phone_number, c.caller, c.direction, c.started_at,
             coalesce((SELECT max(e.at) FROM live_call_events e WHERE e.call_id = c.id), c.started_at) AS last_heard_at,
             (SELECT jsonb_agg(jsonb_build_object('role', t.role, 'text', t.text) ORDER BY t.position)
                FROM transcript_turns t WHERE t.call_id = c.id) AS turns,
             coalesce(n.max_call_minutes, ${DEFAULT_MAX_CALL_MINUTES})::int AS max_call_minutes
        FROM calls c
        LEFT JOIN LATERAL (
          SELECT s.max_call_minutes FROM number_states s WHERE s.number_id = c.number_id ORDER BY s.version DESC LIMIT 1
        ) n ON true
       WHERE c.status = ${CALL_IN_PROGRESS}
         AND c.started_at < ${now.toISOString()}::timestamptz
                            - make_interval(mins => coalesce(n.max_call_minutes, ${DEFAULT_MAX_CALL_MINUTES}))
       ORDER BY c.started_at
       LIMIT ${limit}`.execute(this.prisma.$kysely());
    return rows.map((row) => ({ ...row, turns: row.turns ?? [] }));
  }

  /** Drops the live events of calls that ended more than `keepMinutes` ago (a stream resumes within that). */
  async purge(now: Date, keepMinutes: number): Promise<number> {
    const { numAffectedRows } = await sql`
      DELETE FROM live_call_events e
       WHERE e.at < ${now.toISOString()}::timestamptz - make_interval(mins => ${keepMinutes})
         AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.id = e.call_id AND c.status = ${CALL_IN_PROGRESS})`.execute(
      this.prisma.$kysely(),
    );
    return Number(numAffectedRows ?? 0n);
  }
}

export function toEvent(row: LiveEventRow): LiveCallEvent {
  return {
    id: row.id,
    account_id: row.account_id,
    call_id: row.call_id,
    type: row.type,
    data: row.data,
    at: new Date(row.at).toISOString(),
  };
}

function byId(a: LiveCallEvent, b: LiveCallEvent): number {
  return BigInt(a.id) < BigInt(b.id) ? -1 : 1;
}
