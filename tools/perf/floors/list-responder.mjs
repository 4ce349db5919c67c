// The API benchmark's floor, its service side (issue 19): a bare core-NATS responder that runs the services' own list
// statements (FLOOR_NUMBERS_SQL from numbers-billing, FLOOR_CALLS_SQL from calls-media, taken from the built apps) on
// `pg` against their databases and replies with the same JSON the gateway answers. No framework, no validation
// library: what is left when the architecture's hops are kept and everything around them is taken away.
//
// Environment: FLOOR_NUMBERS_DATABASE_URL, FLOOR_CALLS_DATABASE_URL, FLOOR_NUMBERS_SQL, FLOOR_CALLS_SQL, NATS_URL,
// FLOOR_PREFIX. Prints "ready" when subscribed.
import { require } from '../lib/common.mjs';

const { Pool } = require('pg');
const { connect } = require('@nats-io/transport-node');

const env = process.env;
const PAGE = 50;
// The services' read pools (ADR 0051): 3 connections each.
const numbersDb = new Pool({ connectionString: env.FLOOR_NUMBERS_DATABASE_URL, max: 3 });
const callsDb = new Pool({ connectionString: env.FLOOR_CALLS_DATABASE_URL, max: 3 });
const nc = await connect({ servers: env.NATS_URL, name: 'list-responder' });

const numberView = (row) => ({
  id: `num_${row.id}`,
  phone_number: row.phone_number,
  business_phone: row.business_phone,
  status: row.status,
  webhook_url: row.webhook_url,
  webhook_events: ['call.completed', ...row.webhook_events],
  created_at: row.created_at.toISOString(),
  livemode: true,
});
const callView = (row) => ({
  id: row.id,
  number_id: row.number_id,
  phone_number: row.phone_number,
  caller: row.caller,
  direction: row.direction,
  status: row.status,
  outcome: row.outcome,
  duration_sec: row.duration_sec,
  started_at: row.started_at.toISOString(),
  has_recording: row.recording_key !== null,
  has_transcript: row.has_transcript,
  livemode: true,
});

const serve = (list, db, text, view) => {
  const subscription = nc.subscribe(`${env.FLOOR_PREFIX}.floor.${list}`, { queue: 'floor' });
  void (async () => {
    for await (const msg of subscription) {
      const account = msg.headers?.get('sb-account-id') ?? '';
      db.query({ name: list, text, values: [account, PAGE + 1] }).then(
        ({ rows }) =>
          msg.respond(
            JSON.stringify({ data: rows.slice(0, PAGE).map(view), has_more: rows.length > PAGE, livemode: true }),
          ),
        (error) => msg.respond(JSON.stringify({ error: { code: 'internal_error', message: error.message } })),
      );
    }
  })();
};
serve('numbers', numbersDb, env.FLOOR_NUMBERS_SQL, numberView);
serve('calls', callsDb, env.FLOOR_CALLS_SQL, callView);
// SIGTERM ends the process through exit, so that under --cpu-prof its profile is written (node's default for the
// signal ends it without one).
process.once('SIGTERM', () => process.exit(0));
await nc.flush();
console.log('ready');
