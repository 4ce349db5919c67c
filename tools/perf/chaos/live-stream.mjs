// A client of `GET /v1/calls/live` (docs/live-calls.md) for the live-calls fault test: holds the stream open through
// the gateway, and when it breaks (the gateway killed) or ends, opens it again with the last event id seen as
// `Last-Event-ID`, as EventSource does. Keeps every event with the moment it arrived, and each (re)connection.
import { require, sleep, wallNow as now } from '../lib/common.mjs';
import { overtaken, publishedOutOfOrder, sseReader, streamStats } from '../lib/live-calls-verdict.mjs';

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
      return streamStats({ events, connections, breaks });
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
    overtaken: (id) => overtaken(published, id),
    /** Events that arrived after a higher id had. */
    outOfOrder: () => publishedOutOfOrder(published),
    stop: () => nc.close(),
  };
}
