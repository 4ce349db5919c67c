// A client of `GET /v1/calls/live` (docs/live-calls.md) for the live-calls fault test: holds the stream open through
// the gateway, and when it breaks (the gateway killed) or ends, opens it again with the last event id seen as
// `Last-Event-ID`, as EventSource does. Keeps every event with the moment it arrived, and each (re)connection.
import { performance } from 'node:perf_hooks';
import { require, sleep } from '../lib/common.mjs';
import { sseReader } from '../lib/live-calls-verdict.mjs';

const now = () => performance.timeOrigin + performance.now();

/** Opens the stream now; `stop()` closes it and answers what it saw. */
export function watchLiveCalls(system, key, { retryMs = 250 } = {}) {
  const events = []; // { event, data, id?, at }
  const connections = []; // { at, last_event_id, status }
  const breaks = []; // { at, why }
  let lastEventId;
  let controller;
  let stopped = false;
  let markOpen;
  const open = new Promise((done) => (markOpen = done));

  const connectOnce = async () => {
    controller = new AbortController();
    const headers = { authorization: `Bearer ${key}`, accept: 'text/event-stream' };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const response = await fetch(`${system.publicUrl}/v1/calls/live`, { headers, signal: controller.signal });
    connections.push({ at: now(), last_event_id: lastEventId ?? null, status: response.status });
    if (response.status !== 200) {
      await response.text().catch(() => undefined);
      return `answered ${response.status}`;
    }
    markOpen();
    const reader = sseReader((event) => {
      events.push({ ...event, at: now() });
      if (event.id) lastEventId = event.id;
    });
    const decoder = new TextDecoder();
    for await (const chunk of response.body) reader.push(decoder.decode(chunk, { stream: true }));
    const end = events.findLast((e) => e.event === 'end');
    return end && end.at >= connections.at(-1).at ? `ended: ${JSON.parse(end.data).reason}` : 'closed by the server';
  };

  const running = (async () => {
    while (!stopped) {
      let why;
      try {
        why = await connectOnce();
      } catch (error) {
        why = error.cause?.code ?? error.cause?.message ?? error.message;
      }
      if (stopped) break;
      breaks.push({ at: now(), why });
      await sleep(retryMs);
    }
  })();

  return {
    events,
    /** Resolves once the stream is first open. */
    open,
    /** SID -> how many `ended` events the stream carried for it. */
    endedSeen() {
      const seen = new Map();
      for (const e of events)
        if (e.event === 'ended') {
          const sid = JSON.parse(e.data).call_id;
          seen.set(sid, (seen.get(sid) ?? 0) + 1);
        }
      return seen;
    },
    async stop() {
      stopped = true;
      controller?.abort();
      await running;
      const ids = events.filter((e) => e.id).map((e) => BigInt(e.id));
      const repeatedIds = ids.filter((id, i) => ids.indexOf(id) !== i).length;
      const outOfOrder = ids.filter((id, i) => i > 0 && id <= ids[i - 1]).length;
      const opened = connections.filter((c) => c.status === 200);
      return {
        connections: opened.length,
        reconnects: Math.max(0, opened.length - 1),
        resumed_with_last_event_id: opened.filter((c) => c.last_event_id !== null).length,
        refused_connections: connections.length - opened.length,
        breaks: breaks.length,
        break_reasons: breaks.reduce((counts, b) => ({ ...counts, [b.why]: (counts[b.why] ?? 0) + 1 }), {}),
        events: events.length,
        by_type: events.reduce((counts, e) => ({ ...counts, [e.event]: (counts[e.event] ?? 0) + 1 }), {}),
        repeated_ids: repeatedIds,
        ids_out_of_order: outOfOrder,
      };
    },
  };
}

/**
 * A witness on NATS: every live event calls-media publishes for the account (`<prefix>.calls-live.v1.<account>`, the
 * subject the gateway's streams subscribe to), in the order it arrived. Shows whether an event the stream never
 * carried was published, and whether a higher id came before it.
 */
export async function witnessLivePublishes(system, accountId) {
  const { connect } = require('@nats-io/transport-node');
  const nc = await connect({ servers: system.natsUrl, timeout: 5000 });
  const published = []; // { id, type, call_id, at }
  nc.subscribe(`${system.prefix}.calls-live.v1.${accountId}`, {
    callback: (error, msg) => {
      if (error) return;
      const event = msg.json();
      published.push({ id: event.id, type: event.type, call_id: event.call_id, at: now() });
    },
  });
  await nc.flush();
  return {
    published,
    /** For an event id: whether it was published, and the first higher id that arrived before it (if any). */
    overtaken(id) {
      const index = published.findIndex((p) => p.id === id);
      if (index === -1) return { published: false };
      const before = published.slice(0, index).find((p) => BigInt(p.id) > BigInt(id));
      return { published: true, overtaken_by: before?.id ?? null };
    },
    /** Events that arrived after a higher id had. */
    outOfOrder() {
      let highest = -1n;
      let count = 0;
      for (const p of published) {
        const id = BigInt(p.id);
        if (id < highest) count += 1;
        else highest = id;
      }
      return count;
    },
    stop: () => nc.close(),
  };
}
