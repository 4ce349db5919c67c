// The API benchmark's floor (issue 19): the hops of GET /v1/numbers and /v1/calls built from the bare libraries,
// no framework. A bare Fastify server (the Fastify the gateway runs on) runs the gateway's own authentication
// statement (key lookup and rate-limit count, FLOOR_AUTH_SQL, taken from the built gateway) on `pg` with the
// gateway's commit setting, sends a core NATS request to the bare list responder (floors/list-responder.mjs) and
// answers its JSON. Prints its port on stdout, then serves until killed.
//
// Environment: FLOOR_AUTH_DATABASE_URL, FLOOR_AUTH_SQL, FLOOR_WINDOW_SECONDS, FLOOR_RATE_LIMIT, NATS_URL, FLOOR_PREFIX.
import { require } from '../lib/common.mjs';
import { keyHash } from './list-views.mjs';

const { Pool } = require('pg');
const { connect, headers } = require('@nats-io/transport-node');
const fastify = require('fastify')({ logger: false });

const env = process.env;
const window = Number(env.FLOOR_WINDOW_SECONDS);
const limit = Number(env.FLOOR_RATE_LIMIT);
// The gateway's authentication pool: 4 connections, commits that do not wait for the WAL flush.
const pool = new Pool({
  connectionString: env.FLOOR_AUTH_DATABASE_URL,
  max: 4,
  options: '-c synchronous_commit=off',
});
const nc = await connect({ servers: env.NATS_URL, name: 'api-floor' });
const unauthorized = { error: { code: 'unauthorized', message: 'A valid API key is required.' } };

for (const [path, list] of [
  ['/v1/numbers', 'numbers'],
  ['/v1/calls', 'calls'],
]) {
  const subject = `${env.FLOOR_PREFIX}.floor.${list}`;
  fastify.get(path, async (request, reply) => {
    const hash = keyHash(request.headers.authorization);
    if (!hash) return reply.code(401).send(unauthorized);
    const { rows } = await pool.query({ name: 'auth', text: env.FLOOR_AUTH_SQL, values: [hash, window, window] });
    const key = rows[0];
    if (!key) return reply.code(401).send(unauthorized);
    if (key.count > limit) return reply.code(429).send({ error: { code: 'rate_limited', message: 'Too many.' } });
    const h = headers();
    h.set('sb-account-id', key.account_id);
    const answer = await nc.request(subject, '', { timeout: 5_000, headers: h });
    return reply.type('application/json').send(answer.data);
  });
}

// SIGTERM ends the process through exit, so that under --cpu-prof its profile is written (node's default for the
// signal ends it without one).
process.once('SIGTERM', () => process.exit(0));
const address = await fastify.listen({ port: 0, host: '127.0.0.1' });
console.log(new URL(address).port);
