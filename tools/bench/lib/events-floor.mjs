// The events benchmark's floor (issue 19): the durable pipeline's hops from the bare libraries, in one process of its
// own. A report arrives over HTTP (node:http) and is written with its outbox row in one `pg` transaction; a relay
// publishes outbox rows to JetStream with an ack (the row id as message id) and marks them published; a durable
// pull consumer takes each event, signs its body (libs/signing, as the dispatcher does) and POSTs it over HTTPS with
// keep-alive to the same receivers, then acks. Prints its port when ready.
//
// Environment: FLOOR_DATABASE_URL, NATS_URL, FLOOR_PREFIX, FLOOR_TARGETS_FILE (JSON: phone number -> { number_id,
// secret, port, path }), FLOOR_CA_FILE, FLOOR_CONCURRENCY.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Agent, request } from 'node:https';
import { require } from './common.mjs';

const { Pool } = require('pg');
const { connect } = require('@nats-io/transport-node');
const { jetstream, jetstreamManager, AckPolicy } = require('@nats-io/jetstream');
const { signedHeaders } = require('@switchboard/signing');

const env = process.env;
const targets = JSON.parse(readFileSync(env.FLOOR_TARGETS_FILE, 'utf8'));
const concurrency = Number(env.FLOOR_CONCURRENCY || 32);
const db = new Pool({ connectionString: env.FLOOR_DATABASE_URL, max: 10 });
await db.query(`CREATE TABLE IF NOT EXISTS floor_reports (call_sid text PRIMARY KEY, "to" text NOT NULL, received_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE IF NOT EXISTS floor_outbox (id uuid PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz);
  CREATE INDEX IF NOT EXISTS floor_outbox_unpublished ON floor_outbox (created_at) WHERE published_at IS NULL;`);

const nc = await connect({ servers: env.NATS_URL, name: 'events-floor' });
const js = jetstream(nc);
const jsm = await jetstreamManager(nc);
const stream = `${env.FLOOR_PREFIX.toUpperCase()}_FLOOR`;
const subject = `${env.FLOOR_PREFIX}.floor.events.call_completed`;
await jsm.streams.add({ name: stream, subjects: [subject] }).catch(() => undefined);
await jsm.consumers.add(stream, {
  durable_name: 'floor-dispatch',
  ack_policy: AckPolicy.Explicit,
  ack_wait: 30_000_000_000,
  max_ack_pending: 1000,
});

// ------------------------------------------------------------------------------------------------ the relay
let kicked = false;
let running = false;
async function relay() {
  if (running) {
    kicked = true;
    return;
  }
  running = true;
  try {
    do {
      kicked = false;
      for (;;) {
        const client = await db.connect();
        let published = 0;
        try {
          await client.query('BEGIN');
          const { rows } = await client.query(
            'SELECT id, payload FROM floor_outbox WHERE published_at IS NULL ORDER BY created_at LIMIT 100 FOR UPDATE SKIP LOCKED',
          );
          await Promise.all(rows.map((row) => js.publish(subject, JSON.stringify(row.payload), { msgID: row.id })));
          if (rows.length)
            await client.query('UPDATE floor_outbox SET published_at = now() WHERE id = ANY($1::uuid[])', [
              rows.map((row) => row.id),
            ]);
          await client.query('COMMIT');
          published = rows.length;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
        if (published < 100) break;
      }
    } while (kicked);
  } finally {
    running = false;
  }
}
setInterval(() => void relay().catch((error) => console.error(`floor relay: ${error.message}`)), 200).unref();

// ------------------------------------------------------------------------------------------------ the consumer
const ca = readFileSync(env.FLOOR_CA_FILE);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca });
const post = (target, body, eventId) =>
  new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'POST',
        path: target.path,
        agent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          'X-Switchboard-Event-Id': eventId,
          ...signedHeaders(target.secret, body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', () => resolve(0));
    req.end(body);
  });
const consumer = await js.consumers.get(stream, 'floor-dispatch');
const messages = await consumer.consume({ max_messages: concurrency });
void (async () => {
  for await (const msg of messages) {
    void (async () => {
      const event = msg.json();
      const target = targets[event.to];
      if (!target) return msg.term();
      const body = Buffer.from(
        JSON.stringify({
          type: 'call.completed',
          number_id: target.number_id,
          occurred_at: event.occurred_at,
          call: {
            call_sid: event.call_sid,
            caller: event.caller,
            outcome: event.outcome,
            duration_sec: event.duration_sec,
            started_at: event.occurred_at,
            has_recording: false,
            has_transcript: false,
          },
        }),
      );
      const status = await post(target, body, event.id);
      if (status >= 200 && status < 300) msg.ack();
      else msg.nak(1000);
    })();
  }
})();

// ------------------------------------------------------------------------------------------------ the report door
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const report = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const callSid = `CAfloor${randomUUID().replace(/-/g, '')}`;
      const id = randomUUID();
      const client = await db.connect();
      try {
        await client.query('BEGIN');
        await client.query('INSERT INTO floor_reports (call_sid, "to") VALUES ($1, $2)', [callSid, report.to]);
        await client.query('INSERT INTO floor_outbox (id, payload) VALUES ($1, $2)', [
          id,
          {
            id,
            call_sid: callSid,
            to: report.to,
            caller: report.caller,
            outcome: report.outcome,
            duration_sec: report.duration_sec,
            occurred_at: new Date().toISOString(),
          },
        ]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      void relay().catch((error) => console.error(`floor relay: ${error.message}`));
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ call_sid: callSid }));
    } catch (error) {
      res.writeHead(500).end(String(error.message));
    }
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
