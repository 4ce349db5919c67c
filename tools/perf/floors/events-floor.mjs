// The events benchmark's floors (issue 19): the durable pipeline's hops from the bare libraries, no framework.
//
// The floor (FLOOR_ROLE=all, one process): a report arrives over HTTP (node:http) and is written with its outbox row
// in one `pg` transaction; a relay publishes outbox rows to JetStream with an ack (the row id as message id) and
// marks them published; a durable pull consumer takes each event, signs its body (libs/signing, as the dispatcher
// does) and POSTs it over HTTPS with keep-alive to the same receivers, then acks.
//
// The floor with Switchboard's hops (one process per role, as the system has one per service): `door` (the gateway)
// takes the report over HTTP, asks `biller` whether the number is in service (a core NATS request; ADR 0057 has the
// gateway ask numbers-billing) and hands the report on with a second one; `recorder` (calls-media) writes it with its
// outbox row and runs the relay; `biller` (numbers-billing) answers the standing from its numbers table and, as a
// second durable consumer of the same stream, charges the call's talk time to its account (ledger row and balance in
// one transaction, once per event); `dispatcher` (webhook-dispatcher) keeps a delivery log: it claims the delivery (the
// delivery row with its lease and the attempt row, one statement) before the POST and records the outcome (one
// statement) before the ack. The statements are simpler than the system's (no host slots, endpoint health, backoff or
// balance rules): this floor is what the architecture's hops cost at least. The hops' statements are prepared once per
// connection, as the system prepares its own; the recorder's are the floor's.
//
// Environment: FLOOR_ROLE (all, door, recorder, biller, dispatcher), FLOOR_NAME (stream and table names),
// FLOOR_DATABASE_URL, NATS_URL, FLOOR_PREFIX, FLOOR_TARGETS_FILE (JSON: phone number -> { number_id, account,
// secret, port, path }), FLOOR_CA_FILE, FLOOR_CONCURRENCY. Prints its port (door, all) or `ready` when it is.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Agent, request } from 'node:https';
import { require } from '../lib/common.mjs';

const { Pool } = require('pg');
const { connect } = require('@nats-io/transport-node');
const { jetstream, jetstreamManager, AckPolicy } = require('@nats-io/jetstream');
const { signedHeaders } = require('@switchboard/signing');

const env = process.env;
const role = env.FLOOR_ROLE || 'all';
const name = env.FLOOR_NAME || 'floor';
const targets = JSON.parse(readFileSync(env.FLOOR_TARGETS_FILE, 'utf8'));
const concurrency = Number(env.FLOOR_CONCURRENCY || 32);
const db = role === 'door' ? undefined : new Pool({ connectionString: env.FLOOR_DATABASE_URL, max: 10 });
const nc = await connect({ servers: env.NATS_URL, name: `events-${name}-${role}` });
const js = jetstream(nc);
const stream = `${env.FLOOR_PREFIX.toUpperCase()}_${name.toUpperCase()}`;
const subject = `${env.FLOOR_PREFIX}.${name}.events.call_completed`;
const reportSubject = `${env.FLOOR_PREFIX}.${name}.reports`;
const standingSubject = `${env.FLOOR_PREFIX}.${name}.standing`;

/** The stream (whoever comes first creates it) and, for a consumer's role, its durable pull consumer. */
async function durableConsumer(durable) {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: stream, subjects: [subject] }).catch(() => undefined);
  await jsm.consumers.add(stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    ack_wait: 30_000_000_000,
    max_ack_pending: 1000,
  });
  return (await js.consumers.get(stream, durable)).consume({ max_messages: concurrency });
}

/** Handles every message of `messages` as it comes, none waiting for another. */
function each(messages, handle) {
  void (async () => {
    for await (const msg of messages)
      handle(msg).catch((error) => {
        console.error(`${name} ${role}: ${error.message}`);
        msg.nak(1000);
      });
  })();
}

/** `BEGIN`, `work(client)`, `COMMIT` on one pooled connection; rolled back on error. */
async function transaction(work) {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

// ------------------------------------------------------------------------------------------------ the recorder
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
        const published = await transaction(async (client) => {
          const { rows } = await client.query(
            `SELECT id, payload FROM ${name}_outbox WHERE published_at IS NULL ORDER BY created_at LIMIT 100 FOR UPDATE SKIP LOCKED`,
          );
          await Promise.all(rows.map((row) => js.publish(subject, JSON.stringify(row.payload), { msgID: row.id })));
          if (rows.length)
            await client.query(`UPDATE ${name}_outbox SET published_at = now() WHERE id = ANY($1::uuid[])`, [
              rows.map((row) => row.id),
            ]);
          return rows.length;
        });
        if (published < 100) break;
      }
    } while (kicked);
  } finally {
    running = false;
  }
}

async function startRecorder() {
  await db.query(`CREATE TABLE IF NOT EXISTS ${name}_reports (call_sid text PRIMARY KEY, "to" text NOT NULL, received_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS ${name}_outbox (id uuid PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz);
    CREATE INDEX IF NOT EXISTS ${name}_outbox_unpublished ON ${name}_outbox (created_at) WHERE published_at IS NULL;`);
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: stream, subjects: [subject] }).catch(() => undefined);
  setInterval(() => void relay().catch((error) => console.error(`${name} relay: ${error.message}`)), 200).unref();
}

/** The report and its outbox row in one transaction; the relay is woken. Resolves to the call's SID. */
async function record(report) {
  const callSid = `CAfloor${randomUUID().replace(/-/g, '')}`;
  const id = randomUUID();
  await transaction(async (client) => {
    await client.query(`INSERT INTO ${name}_reports (call_sid, "to") VALUES ($1, $2)`, [callSid, report.to]);
    await client.query(`INSERT INTO ${name}_outbox (id, payload) VALUES ($1, $2)`, [
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
  });
  void relay().catch((error) => console.error(`${name} relay: ${error.message}`));
  return callSid;
}

// ------------------------------------------------------------------------------------------------ the biller
async function startBiller() {
  const accounts = [...new Set(Object.values(targets).map((target) => target.account))];
  await db.query(`CREATE TABLE IF NOT EXISTS ${name}_accounts (id int PRIMARY KEY, balance_cents bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS ${name}_ledger (event_id uuid PRIMARY KEY, account_id int NOT NULL, amount_cents int NOT NULL, created_at timestamptz NOT NULL DEFAULT now());`);
  await db.query(
    `INSERT INTO ${name}_accounts (id, balance_cents) SELECT unnest($1::int[]), 1000000 ON CONFLICT (id) DO NOTHING`,
    [accounts],
  );
  // Whether a phone number is in service at an instant: provisioned before it and not released by then.
  await db.query(
    `CREATE TABLE IF NOT EXISTS ${name}_numbers (phone_number text PRIMARY KEY, account_id int NOT NULL, provisioned_at timestamptz NOT NULL DEFAULT now() - interval '1 day', released_at timestamptz)`,
  );
  await db.query(
    `INSERT INTO ${name}_numbers (phone_number, account_id) SELECT unnest($1::text[]), unnest($2::int[]) ON CONFLICT (phone_number) DO NOTHING`,
    [Object.keys(targets), Object.values(targets).map((target) => target.account)],
  );
  nc.subscribe(standingSubject, {
    queue: 'biller',
    callback: (error, msg) => {
      if (error) return;
      const { phone_number: phoneNumber, at } = msg.json();
      db.query({
        name: 'standing',
        text: `SELECT EXISTS (SELECT 1 FROM ${name}_numbers WHERE phone_number = $1 AND provisioned_at <= $2 AND (released_at IS NULL OR released_at > $2)) AS in_service`,
        values: [phoneNumber, at],
      }).then(
        ({ rows }) => msg.respond(JSON.stringify({ in_service: rows[0].in_service })),
        (failure) => console.error(`${name} standing: ${failure.message}`),
      );
    },
  });
  each(await durableConsumer(`${name}-billing`), async (msg) => {
    const event = msg.json();
    const target = targets[event.to];
    if (!target) return msg.term();
    // Talk time by the started minute, once per event: the ledger row's key refuses a second charge.
    const cents = Math.ceil(event.duration_sec / 60) * 2;
    await transaction((client) =>
      client.query({
        name: 'charge_talk_time',
        text: `WITH charged AS (INSERT INTO ${name}_ledger (event_id, account_id, amount_cents) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING RETURNING amount_cents)
         UPDATE ${name}_accounts SET balance_cents = balance_cents - charged.amount_cents FROM charged WHERE id = $2`,
        values: [event.id, target.account, cents],
      }),
    );
    msg.ack();
  });
}

// ------------------------------------------------------------------------------------------------ the dispatcher
const ca = readFileSync(env.FLOOR_CA_FILE);
// A TLS session kept for every receiver port (the default keeps 100; a run has one port per account, 334): a
// connection the receiver closed while idle is resumed, not set up with a full handshake, as the dispatcher's are.
const agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxCachedSessions: 100_000, ca });
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

/** `log`: keep a delivery log, a claim before the POST and the outcome after it (the floor with the hops). */
async function startDispatcher({ log }) {
  if (log)
    await db.query(`CREATE TABLE IF NOT EXISTS ${name}_deliveries (event_id uuid PRIMARY KEY, number_id text NOT NULL, body text NOT NULL, status text NOT NULL DEFAULT 'pending', attempts int NOT NULL DEFAULT 0, lease_until timestamptz, updated_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE IF NOT EXISTS ${name}_attempts (id bigserial PRIMARY KEY, event_id uuid NOT NULL, attempt int NOT NULL, url text NOT NULL, status_code int, attempted_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz, duration_ms int);`);
  each(await durableConsumer(`${name}-dispatch`), async (msg) => {
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
    let attempt;
    if (log) {
      const { rows } = await db.query({
        name: 'claim_delivery',
        text: `WITH delivery AS (
           INSERT INTO ${name}_deliveries AS d (event_id, number_id, body, lease_until) VALUES ($1, $2, $3, now() + interval '30 seconds')
           ON CONFLICT (event_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, updated_at = now()
            WHERE d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= now())
           RETURNING attempts)
         INSERT INTO ${name}_attempts (event_id, attempt, url) SELECT $1, attempts + 1, $4 FROM delivery RETURNING id, attempt`,
        values: [event.id, target.number_id, body.toString('utf8'), `https://127.0.0.1:${target.port}${target.path}`],
      });
      // Another worker holds it, or it has its verdict: JetStream's redelivery will find out which.
      if (rows.length === 0) return msg.nak(1000);
      attempt = rows[0];
    }
    const started = Date.now();
    const status = await post(target, body, event.id);
    const delivered = status >= 200 && status < 300;
    if (log)
      await db.query({
        name: 'finish_delivery',
        text: `WITH attempt AS (UPDATE ${name}_attempts SET status_code = $2, finished_at = now(), duration_ms = $3 WHERE id = $1)
         UPDATE ${name}_deliveries SET status = $4, attempts = $5, lease_until = NULL, updated_at = now() WHERE event_id = $6`,
        values: [
          attempt.id,
          status || null,
          Date.now() - started,
          delivered ? 'delivered' : 'pending',
          attempt.attempt,
          event.id,
        ],
      });
    if (delivered) msg.ack();
    else msg.nak(1000);
  });
}

// ------------------------------------------------------------------------------------------------ the door
/** The report server: the report answered with its SID by `handle`. */
function startDoor(handle) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const answer = await handle(Buffer.concat(chunks));
        res.writeHead(202, { 'content-type': 'application/json' }).end(answer);
      } catch (error) {
        res.writeHead(500).end(String(error.message));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
}

const answer = (callSid) => JSON.stringify({ call_sid: callSid });
// The door's requests wait 30 s, as the gateway's report route does (REPORT_TIMEOUT_MS): NATS's default (1 s) would
// drop a report queued behind a burst, and count it lost against the floor.
const REQUEST_TIMEOUT_MS = 30_000;
switch (role) {
  case 'all':
    await startRecorder();
    await startDispatcher({ log: false });
    startDoor(async (body) => answer(await record(JSON.parse(body.toString('utf8')))));
    break;
  case 'door':
    startDoor(async (body) => {
      const report = JSON.parse(body.toString('utf8'));
      const at = new Date().toISOString();
      const question = JSON.stringify({ phone_number: report.to, at });
      const standing = (await nc.request(standingSubject, question, { timeout: REQUEST_TIMEOUT_MS })).json();
      if (!standing.in_service) throw new Error(`${report.to} is not in service`);
      return (await nc.request(reportSubject, body, { timeout: REQUEST_TIMEOUT_MS })).string();
    });
    break;
  case 'recorder':
    await startRecorder();
    nc.subscribe(reportSubject, {
      queue: 'recorder',
      callback: (error, msg) => {
        if (error) return;
        record(msg.json()).then(
          (callSid) => msg.respond(answer(callSid)),
          (failure) => console.error(`${name} recorder: ${failure.message}`),
        );
      },
    });
    await nc.flush();
    console.log('ready');
    break;
  case 'biller':
    await startBiller();
    console.log('ready');
    break;
  case 'dispatcher':
    await startDispatcher({ log: true });
    console.log('ready');
    break;
  default:
    throw new Error(`unknown FLOOR_ROLE ${role}`);
}
