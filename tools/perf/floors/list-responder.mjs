// The API benchmark's floor, its service side (issue 19): a bare core-NATS responder that runs the services' own list
// statements (FLOOR_NUMBERS_SQL from numbers-billing, FLOOR_CALLS_SQL from calls-media, taken from the built apps) on
// `pg` against their databases and replies with the same JSON the gateway answers. No framework, no validation
// library: what is left when the architecture's hops are kept and everything around them is taken away.
//
// Environment: FLOOR_NUMBERS_DATABASE_URL, FLOOR_CALLS_DATABASE_URL, FLOOR_NUMBERS_SQL, FLOOR_CALLS_SQL, NATS_URL,
// FLOOR_PREFIX. Prints "ready" when subscribed.
import { require } from '../lib/common.mjs';
import { callView, listPage, numberView, PAGE } from './list-views.mjs';

const { Pool } = require('pg');
const { connect } = require('@nats-io/transport-node');

const env = process.env;
// The services' read pools (ADR 0070): 3 connections each.
const numbersDb = new Pool({ connectionString: env.FLOOR_NUMBERS_DATABASE_URL, max: 3 });
const callsDb = new Pool({ connectionString: env.FLOOR_CALLS_DATABASE_URL, max: 3 });
const nc = await connect({ servers: env.NATS_URL, name: 'list-responder' });

const serve = (list, db, text, view) => {
  const subscription = nc.subscribe(`${env.FLOOR_PREFIX}.floor.${list}`, { queue: 'floor' });
  void (async () => {
    for await (const msg of subscription) {
      const account = msg.headers?.get('sb-account-id') ?? '';
      db.query({ name: list, text, values: [account, PAGE + 1] }).then(
        ({ rows }) => msg.respond(JSON.stringify(listPage(rows, view))),
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
