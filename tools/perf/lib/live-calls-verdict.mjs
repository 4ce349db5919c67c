// The live-calls fault test's parts without I/O (chaos/scenarios.mjs, `killDuringLiveCalls`): its plan of calls, a
// reader of the live stream's Server-Sent Events, and its accounting. Every call accepted (202) must end `completed`
// in GET /v1/calls and be billed once (one `talk_time` row); none may be listed twice, billed twice, or corrected
// (a `talk_time_adjustment` means it was closed as incomplete first, and every end report of the run comes). What
// the live stream saw is counted and shown, not judged: the end report is the record (docs/live-calls.md).
import { mulberry32 } from './random.mjs';
import { countBy } from './stats.mjs';

const LINES = [
  ['caller', 'Hi, I would like to order a large pizza.'],
  ['agent', 'Of course. Which toppings would you like?'],
  ['caller', 'Mushrooms and olives, please.'],
  ['agent', 'Anything to drink with that?'],
  ['caller', 'Two lemonades.'],
  ['agent', 'That comes to 23.50. It will be ready in twenty minutes.'],
];

/**
 * `calls` live calls: each with 4-6 transcript turns `turn_interval_ms` 500-1000 apart and a duration of 20-600 s.
 * Each plays for (turns + 1) x interval: the start, each turn, then the end.
 */
export function livePlan({ calls, seed = 1 }) {
  // Seeded: the same seed plays the same calls.
  const random = mulberry32(seed);
  const between = (low, high) => low + Math.floor(random() * (high - low + 1));
  return Array.from({ length: calls }, () => {
    const turns = between(4, 6);
    const interval = between(500, 1000);
    return {
      duration_sec: between(20, 600),
      turn_interval_ms: interval,
      transcript: LINES.slice(0, turns).map(([role, text]) => ({ role, text })),
      plays_ms: (turns + 1) * interval,
    };
  });
}

/** The talk time the plan costs at `ratePerMinuteCents` (scale: 29), rounded up to whole cents. */
export function planTalkTimeCents(plan, ratePerMinuteCents = 29) {
  return Math.ceil(plan.reduce((sum, call) => sum + (call.duration_sec * ratePerMinuteCents) / 60, 0));
}

/**
 * A `text/event-stream` reader: `push(text)` as chunks arrive; `onEvent({ event, data, id })` for each event with a
 * name (comments and `retry:` lines are not events). Lines end with LF, CRLF or CR; a block ends with a blank line;
 * several `data:` lines join with LF (the SSE specification).
 */
export function sseReader(onEvent) {
  let buffer = '';
  const dispatch = (block) => {
    let event;
    let id;
    const data = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (event !== undefined) onEvent({ event, data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
  };
  return {
    push(text) {
      buffer += text.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    },
  };
}

/**
 * The accounting. `accepted`: the SIDs answered 202. `listed`: every call of the account in GET /v1/calls
 * ([{ id, status, duration_sec }]). `ledger`: the account's ledger rows ([{ kind, reference }]). `expected`: SID ->
 * the duration it was reported with. `endedSeen`: SID -> how many `ended` events the live stream carried.
 * Lost: an accepted call not `completed`, or without a `talk_time` row. Duplicated: a call listed twice, billed twice,
 * or corrected by a `talk_time_adjustment`.
 */
export function liveAccounting({ accepted, listed, ledger, expected = new Map(), endedSeen = new Map() }) {
  const acceptedSet = new Set(accepted);
  const listedCount = new Map();
  const status = new Map();
  for (const call of listed) {
    listedCount.set(call.id, (listedCount.get(call.id) ?? 0) + 1);
    status.set(call.id, call);
  }
  const rows = (kind) => {
    const bySid = new Map();
    for (const row of ledger) {
      if (row.kind !== kind) continue;
      const sid = row.reference.slice(kind.length + 1);
      bySid.set(sid, (bySid.get(sid) ?? 0) + 1);
    }
    return bySid;
  };
  const billed = rows('talk_time');
  const adjusted = rows('talk_time_adjustment');

  const notCompleted = accepted.filter((sid) => status.get(sid)?.status !== 'completed');
  const notBilled = accepted.filter((sid) => !billed.has(sid));
  const lost = new Set([...notCompleted, ...notBilled]);
  const listedTwice = [...listedCount].filter(([, n]) => n > 1).map(([sid]) => sid);
  const billedTwice = [...billed].filter(([, n]) => n > 1).map(([sid]) => sid);
  const corrected = [...adjusted.keys()];
  const wrongDuration = accepted.filter(
    (sid) =>
      status.get(sid)?.status === 'completed' &&
      expected.has(sid) &&
      status.get(sid).duration_sec !== expected.get(sid),
  );
  const recordedDespiteError = [...listedCount.keys()].filter((sid) => !acceptedSet.has(sid));
  const seenEnded = accepted.filter((sid) => (endedSeen.get(sid) ?? 0) > 0);
  const endedTwice = [...endedSeen].filter(([, n]) => n > 1).map(([sid]) => sid);

  return {
    accepted: accepted.length,
    completed: accepted.length - notCompleted.length,
    billed: accepted.length - notBilled.length,
    statuses: countBy(accepted, (sid) => status.get(sid)?.status ?? 'not listed'),
    in_progress: listed.filter((call) => call.status === 'in_progress').length,
    recorded_despite_error: recordedDespiteError.length,
    lost_by_check: { not_completed: notCompleted.length, not_billed: notBilled.length },
    duplicated_by_check: {
      calls_list: listedTwice.length,
      billing: billedTwice.length,
      adjustment: corrected.length,
    },
    wrong_duration: wrongDuration.length,
    stream: { saw_ended: seenEnded.length, ended_twice: endedTwice.length },
    lost: lost.size,
    duplicated: listedTwice.length + billedTwice.length + corrected.length,
    evidence: {
      not_completed: notCompleted.slice(0, 20).map((sid) => ({ sid, status: status.get(sid)?.status ?? 'not listed' })),
      not_billed: notBilled.slice(0, 20),
      listed_twice: listedTwice.slice(0, 20),
      billed_twice: billedTwice.slice(0, 20),
      adjusted: corrected.slice(0, 20),
      wrong_duration: wrongDuration
        .slice(0, 20)
        .map((sid) => ({ sid, reported: expected.get(sid), listed: status.get(sid).duration_sec })),
      recorded_despite_error: recordedDespiteError.slice(0, 20),
      stream_missed_end: accepted.filter((sid) => !endedSeen.has(sid)).slice(0, 20),
    },
  };
}

/**
 * What the live stream's client saw (chaos/live-stream.mjs): `events` [{ event, id? }], its `connections` [{ status,
 * last_event_id }] and `breaks` [{ why }]. An id seen again, or not above the one before it, is counted.
 */
export function streamStats({ events, connections, breaks }) {
  const ids = events.filter((e) => e.id).map((e) => BigInt(e.id));
  const opened = connections.filter((c) => c.status === 200);
  return {
    connections: opened.length,
    reconnects: Math.max(0, opened.length - 1),
    resumed_with_last_event_id: opened.filter((c) => c.last_event_id !== null).length,
    refused_connections: connections.length - opened.length,
    breaks: breaks.length,
    break_reasons: countBy(breaks, (b) => b.why),
    events: events.length,
    by_type: countBy(events, (e) => e.event),
    repeated_ids: ids.filter((id, i) => ids.indexOf(id) !== i).length,
    ids_out_of_order: ids.filter((id, i) => i > 0 && id <= ids[i - 1]).length,
  };
}

/**
 * Of the live events published on NATS (`published` [{ id }], in the order they arrived): whether the event `id` was
 * published, and the first higher id that arrived before it (null when none did).
 */
export function overtaken(published, id) {
  const index = published.findIndex((p) => p.id === id);
  if (index === -1) return { published: false };
  const before = published.slice(0, index).find((p) => BigInt(p.id) > BigInt(id));
  return { published: true, overtaken_by: before?.id ?? null };
}

/** How many of the `published` events arrived after an event with a higher id had. */
export function publishedOutOfOrder(published) {
  let highest = -1n;
  let count = 0;
  for (const p of published) {
    const id = BigInt(p.id);
    if (id < highest) count += 1;
    else highest = id;
  }
  return count;
}
