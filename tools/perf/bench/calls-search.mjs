#!/usr/bin/env node
// node tools/perf/bench/calls-search.mjs [--small 10000] [--large 1000000] [--runs 200] [--json] [--no-build]
//
// `GET /v1/calls` with each of its filters, `q` (full-text search) and `include_total`, and `GET /v1/calls/stats`, as
// an account grows from 10,000 calls to 1,000,000, through the API (the gateway's HTTP, NATS, calls-media,
// PostgreSQL) as the system runs: the five services from their bundles (tools/perf/lib/system.mjs).
//
// One account A is seeded with --small calls and measured; then grown to --large calls and measured again, so the
// small figures are those of a table that holds only them (the fair baseline for "the same at 10,000"). With the
// growth, a second account B gets --small calls of its own and is measured too: a small account beside a large one
// in the same table (shown, not judged). The calls come from a deterministic generator (tools/perf/lib/
// call-corpus.mjs: a pizzeria's calls, about 8 turns each, words by a Zipf-like law, skewed outcomes, sentiment,
// durations and callers) and go straight into calls-media's database: COPY into a staging table and the transcript
// table, then one INSERT ... SELECT that computes `search` with to_tsvector over the document calls-media itself
// indexes (`searchDocument` and `SEARCH_CONFIG` of calls.repository.ts, read from
// the built app), with the tables' indexes and constraints dropped while loading and rebuilt after it as the
// migrations define them; then VACUUM ANALYZE and a checkpoint. Before seeding, one call is reported through the
// simulated provider and the `search` calls-media wrote for it is compared with the seed's expression.
//
// Each case: --warmup untimed requests, then --runs requests one at a time over one keep-alive connection (a case
// stops early after --case-seconds), after waiting up to --wait-quiet seconds for other processes to calm down and
// measured again (up to three times) when they did not; p50/p99 of each, and the CPU per request of calls-media's own
// database connections. Three more cases are shown but not judged: a filter value no call has (the whole account
// read), include_total with a selective filter, and the stats' longest range (366 days). Then the verdicts (tools/perf/lib/calls-search-verdict.mjs):
// `q`, every filter, the plain list and include_total at the large size must keep p99 <= 3x their p99 at the small
// size and < 250 ms; the stats < 250 ms. The process exits 1 when a case misses. For every case that misses (all
// with --explain all), the statements calls-media runs for it are captured from its own code (its built
// CallsService over a Kysely that records and runs them) and shown with EXPLAIN (ANALYZE, BUFFERS) as the service
// meets them: prepared, on their sixth execution (when PostgreSQL may have switched to a generic plan), and as a
// custom plan when that differs.
//
// Results: tables on stdout and JSON in tools/perf/results/; with --json the JSON on stdout and the rest on stderr.
// --keep leaves the system and its databases up at the end (until Ctrl-C) to look into a plan by hand.
// Needs PostgreSQL (TEST_DATABASE_URL), NATS (NATS_URL), `psql` on the PATH. About 10-15 min with the defaults.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Admin, Api, HttpError } from '../lib/clients.mjs';
import { callBatch, copyLine, SURNAMES } from '../lib/call-corpus.mjs';
import { casesTable, TARGETS, verdicts } from '../lib/calls-search-verdict.mjs';
import { fmt, machine, require, root, say, shortCount, sleep, writeResults } from '../lib/common.mjs';
import { measured, waitForQuiet } from '../lib/cpu.mjs';
import { timedGet } from '../lib/load.mjs';
import { commandLine } from '../lib/options.mjs';
import { databaseUrl, dropIndexes, rebuildIndexes, withClient } from '../lib/postgres.mjs';
import { round, summarize } from '../lib/stats.mjs';
import { SERVICES, startSystem } from '../lib/system.mjs';

// ---------------------------------------------------------------------------------------------- options
const options = commandLine('node tools/perf/bench/calls-search.mjs', {
  small: {
    type: 'number',
    default: 10_000,
    min: 100,
    help: 'calls of the account at first, and of the second account',
  },
  large: { type: 'number', default: 1_000_000, min: 1000, help: 'calls of the account after it grew' },
  runs: { type: 'number', default: 200, min: 20, help: 'timed requests per case and size, one at a time' },
  warmup: { type: 'number', default: 20, min: 0, help: 'untimed requests before each case' },
  'case-seconds': { type: 'number', default: 120, min: 5, help: 'stop a case after this many seconds of requests' },
  explain: {
    type: 'string',
    default: 'missed',
    choices: ['missed', 'all', 'none'],
    help: 'EXPLAIN (ANALYZE, BUFFERS) the statements of the cases that missed, of all, or of none',
  },
  'wait-quiet': {
    type: 'number',
    default: 120,
    min: 0,
    help: 'before each case, wait up to this many seconds for other processes to use under 30% of a core',
  },
  seed: { type: 'number', default: 1, min: 0, help: "the corpus' seed" },
  json: { type: 'boolean', default: false, help: 'print the results as JSON on stdout, the rest on stderr' },
  keep: {
    type: 'boolean',
    default: false,
    help: 'at the end, keep the system and its databases until Ctrl-C (to look into a plan by hand)',
  },
  'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
});
if (options.large <= options.small) {
  console.error('--large must be more than --small');
  process.exit(2);
}
// With --json, stdout carries the JSON only.
if (options.json) console.log = (...args) => console.error(...args);
const out = (text) => console.log(text);

const DAY_MS = 86_400_000;
/** The CPU of calls-media's database connections (PostgreSQL backends), per request. */
const DB_LABEL = 'calls-media db';
const RUN_ENV = {
  // The per-key limit is configuration; a benchmark's thousands of requests must not meet the public 60/min.
  RATE_LIMIT_REQUESTS: '1000000000',
  RATE_LIMIT_WINDOW_SECONDS: '3600',
};

// ---------------------------------------------------------------------------------------------- the cases
const anchor = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const statsRange = { since: new Date(anchor - 30 * DAY_MS).toISOString(), until: new Date(anchor).toISOString() };
/** Rare words: 50 surnames of rank 1,001-1,050 in the corpus (about 50 calls each per million). */
const RARE_WORDS = SURNAMES.slice(1000, 1050);
const COMMON_WORD = 'pizza';
const PHRASE = '"extra cheese"';

/**
 * id, label, kind (list | filter | q | stats: the verdict's rule), route and the query of request n. `ctx.callers`:
 * callers of the first calls seeded, so they have calls at both sizes.
 */
const CASES = [
  { id: 'list', label: 'plain list (newest first)', kind: 'list', query: () => ({}) },
  {
    id: 'outcome',
    label: 'outcome=reservation_booked',
    kind: 'filter',
    query: () => ({ outcome: 'reservation_booked' }),
  },
  {
    id: 'outcome_multi',
    label: 'outcome=transferred,complaint',
    kind: 'filter',
    query: () => ({ outcome: 'transferred,complaint' }),
  },
  { id: 'direction', label: 'direction=outbound', kind: 'filter', query: () => ({ direction: 'outbound' }) },
  { id: 'status', label: 'status=failed', kind: 'filter', query: () => ({ status: 'failed' }) },
  {
    id: 'caller',
    label: 'caller=<50 callers in turn>',
    kind: 'filter',
    query: (n, ctx) => ({ caller: ctx.callers[n % ctx.callers.length] }),
  },
  { id: 'min_duration', label: 'min_duration=300', kind: 'filter', query: () => ({ min_duration: 300 }) },
  { id: 'max_duration', label: 'max_duration=30', kind: 'filter', query: () => ({ max_duration: 30 }) },
  { id: 'sentiment', label: 'sentiment=negative', kind: 'filter', query: () => ({ sentiment: 'negative' }) },
  { id: 'successful', label: 'successful=false', kind: 'filter', query: () => ({ successful: false }) },
  { id: 'has_recording', label: 'has_recording=false', kind: 'filter', query: () => ({ has_recording: false }) },
  { id: 'q_common', label: `q=${COMMON_WORD} (common word)`, kind: 'q', query: () => ({ q: COMMON_WORD }) },
  {
    id: 'q_rare',
    label: 'q=<50 rare surnames in turn>',
    kind: 'q',
    query: (n) => ({ q: RARE_WORDS[n % RARE_WORDS.length] }),
  },
  { id: 'q_phrase', label: `q=${PHRASE} (phrase)`, kind: 'q', query: () => ({ q: PHRASE }) },
  { id: 'include_total', label: 'include_total=true', kind: 'list', query: () => ({ include_total: true }) },
  ...['day', 'outcome', 'sentiment', 'number'].map((group) => ({
    id: `stats_${group}`,
    label: `stats, 30 days, group_by=${group}`,
    kind: 'stats',
    route: '/v1/calls/stats',
    query: () => ({ ...statsRange, group_by: group }),
  })),
  // Shown, not judged: what the cases above do not reach.
  {
    id: 'info_status_absent',
    label: 'status=canceled (no call has it: the whole account read)',
    kind: 'info',
    query: () => ({ status: 'canceled' }),
  },
  {
    id: 'info_total_outbound',
    label: 'include_total=true&direction=outbound',
    kind: 'info',
    query: () => ({ include_total: true, direction: 'outbound' }),
  },
  {
    id: 'info_stats_year',
    label: 'stats, 366 days (the longest range), group_by=day',
    kind: 'info',
    route: '/v1/calls/stats',
    query: () => ({ since: new Date(anchor - 366 * DAY_MS).toISOString(), until: statsRange.until, group_by: 'day' }),
  },
];
const pathOf = (c, n, ctx) => `${c.route ?? '/v1/calls'}?${new URLSearchParams(c.query(n, ctx)).toString()}`;

// ---------------------------------------------------------------------------------------------- accounts
/** An account with a key and up to `wanted` numbers (the velocity limit's window moved back between threes). */
async function benchAccount(system, name, wanted, area) {
  const admin = new Admin(system);
  const account = await admin.createAccount({ name, balance_cents: 10_000_000, tier: 'scale' });
  const { key } = await admin.createKey(account.id);
  const api = new Api(system, key);
  const numbers = [];
  for (let n = 0; n < wanted; n += 1) {
    if (n > 0 && n % 3 === 0)
      await system.sql(
        'numbers-billing',
        `UPDATE numbers SET created_at = created_at - interval '2 hours' WHERE account_id = $1`,
        [account.id],
      );
    const answer = await api.provision(
      { business_phone: `+1${area}555${String(2000 + n).padStart(4, '0')}`, area_code: area },
      { headers: { 'idempotency-key': `calls-search-${account.id}-${n}` } },
    );
    if (answer.status !== 201) {
      say(`${name}: number ${n + 1} of ${wanted} refused (${answer.status} ${JSON.stringify(answer.body)}); going on`);
      break;
    }
    numbers.push({ id: answer.body.id, phone_number: answer.body.phone_number });
  }
  if (numbers.length === 0) throw new Error(`${name}: no number could be provisioned`);
  return { account, key, api, numbers };
}

// ---------------------------------------------------------------------------------------------- seeding
const STAGING_COLUMNS = (
  'ord id account_id number_id phone_number caller direction status outcome duration_sec started_at ' +
  'has_transcript recording_key recording_size recording_etag recording_content_type summary sentiment ' +
  'successful custom_analysis document'
).split(' ');
const CALL_COLUMNS = STAGING_COLUMNS.filter((column) => column !== 'ord' && column !== 'document');

/** `COPY table (columns) FROM STDIN` through psql: `write(text)` (waits when psql's pipe is full), `end()`. */
function copyInto(url, tableName, columns) {
  const child = spawn(
    'psql',
    [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `COPY ${tableName} (${columns.join(', ')}) FROM STDIN`],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async write(text) {
      if (!child.stdin.write(text)) await Promise.race([once(child.stdin, 'drain'), exited]);
    },
    async end() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`COPY ${tableName} failed (${code}): ${stderr.trim()}`);
    },
  };
}

/**
 * Seeds `batches` (call-corpus batches) into calls-media's database, as described at the top. Returns the seconds of
 * each step.
 */
async function seedCalls(system, batches, { searchConfig, searchDocument }) {
  const url = databaseUrl(system.databases['calls-media']);
  const steps = {};
  let started = performance.now();
  const step = (name) => {
    const now = performance.now();
    steps[name] = round((now - started) / 1000, 1);
    started = now;
  };
  const total = batches.reduce((sum, batch) => sum + batch.count, 0);
  const saved = await withClient(url, (db) => dropIndexes(db, ['calls', 'transcript_turns']));
  await withClient(url, (db) =>
    db.query(`DROP TABLE IF EXISTS bench_calls_staging;
      CREATE UNLOGGED TABLE bench_calls_staging (ord bigint, id text, account_id text, number_id text, phone_number text,
        caller text, direction text, status text, outcome text, duration_sec int, started_at timestamptz,
        has_transcript boolean, recording_key text, recording_size int, recording_etag text, recording_content_type text,
        summary text, sentiment text, successful boolean, custom_analysis jsonb, document text)`),
  );
  step('drop_indexes_s');

  const calls = copyInto(url, 'bench_calls_staging', STAGING_COLUMNS);
  const turns = copyInto(url, 'transcript_turns', ['call_id', 'position', 'role', 'text']);
  let ord = 0;
  let callLines = '';
  let turnLines = '';
  let nextReport = 100_000;
  const flush = async () => {
    await Promise.all([calls.write(callLines), turns.write(turnLines)]);
    callLines = '';
    turnLines = '';
  };
  for (const batch of batches) {
    for (let k = 0; k < batch.count; k += 1) {
      const call = batch.call(k);
      const recorded = call.recorded;
      callLines += copyLine([
        ord,
        call.id,
        call.account_id,
        call.number_id,
        call.phone_number,
        call.caller,
        call.direction,
        call.status,
        call.outcome,
        call.duration_sec,
        new Date(call.started_at).toISOString(),
        call.turns.length > 0,
        recorded ? `${call.id}.mp3` : null,
        recorded ? Math.max(1, call.duration_sec) * 16_000 : null,
        recorded ? createHash('md5').update(call.id).digest('hex') : null,
        recorded ? 'audio/mpeg' : null,
        call.summary,
        call.sentiment,
        call.successful,
        JSON.stringify(call.custom),
        searchDocument(call.summary, call.turns),
      ]);
      call.turns.forEach((turn, position) => (turnLines += copyLine([call.id, position, turn.role, turn.text])));
      ord += 1;
      if (ord % 2000 === 0) await flush();
      if (ord >= nextReport) {
        say(`  generated and copied ${ord.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} calls`);
        nextReport += 100_000;
      }
    }
  }
  await flush();
  await Promise.all([calls.end(), turns.end()]);
  step('generate_and_copy_s');

  // One statement on one connection, reading the staging table in the order it was copied (arrival order): the
  // table is in start-time order as calls arrive in production. (Two connections inserting halves at once were a
  // minute faster but interleaved neighbouring calls between two distant parts of the table, which made every
  // range of calls read twice the pages and switch visibility-map pages at almost every row.)
  const columns = CALL_COLUMNS.join(', ');
  await withClient(url, async (db) => {
    await db.query('SET synchronize_seqscans = off');
    await db.query(
      `INSERT INTO calls (${columns}, search)
       SELECT ${columns}, to_tsvector($1::regconfig, document) FROM bench_calls_staging`,
      [searchConfig],
    );
  });
  await withClient(url, (db) => db.query('DROP TABLE bench_calls_staging'));
  step('insert_with_tsvector_s');
  await rebuildIndexes(saved, (work) => withClient(url, work));
  step('indexes_and_constraints_s');
  await Promise.all(
    ['calls', 'transcript_turns'].map((t) => withClient(url, (db) => db.query(`VACUUM (ANALYZE) ${t}`))),
  );
  await withClient(url, (db) => db.query('CHECKPOINT'));
  step('vacuum_analyze_checkpoint_s');
  steps.total_s = round(
    Object.values(steps).reduce((sum, s) => sum + s, 0),
    1,
  );
  return steps;
}

/**
 * One call reported through the simulated provider (transcript and analysis from the corpus), and the `search`
 * calls-media stored for it compared with what the seed computes for the same call.
 */
async function checkSearchParity(system, owner, call, { searchConfig, searchDocument }) {
  const admin = new Admin(system);
  let sid;
  for (let attempt = 0; ; attempt += 1) {
    try {
      ({ call_sid: sid } = await admin.injectCall({
        to: owner.numbers[0].phone_number,
        caller: call.caller,
        duration_sec: call.duration_sec,
        outcome: call.outcome,
        transcript: call.turns,
        analysis: {
          summary: call.summary ?? undefined,
          sentiment: call.sentiment,
          successful: call.successful ?? undefined,
        },
      }));
      break;
    } catch (error) {
      if (attempt >= 20 || !(error instanceof HttpError)) throw error;
      await sleep(300); // the number's provisioning is still on its way to calls-media
    }
  }
  for (let i = 0; i < 100; i += 1) {
    const rows = await system.sql(
      'calls-media',
      `SELECT summary, search::text = to_tsvector($2::regconfig, $3)::text AS same, search IS NULL AS missing
         FROM calls WHERE id = $1`,
      [sid, searchConfig, searchDocument(call.summary, call.turns)],
    );
    if (rows.length === 1) {
      return {
        call_sid: sid,
        same: rows[0].same === true,
        search_missing: rows[0].missing,
        summary_stored: rows[0].summary === call.summary,
      };
    }
    await sleep(200);
  }
  throw new Error(`the reported call ${sid} was not recorded within 20 s`);
}

// ---------------------------------------------------------------------------------------------- timing
/**
 * `runs` requests one at a time over one keep-alive connection after `warmup` untimed ones; a request's time runs
 * from its sending to the end of its answer. Stops after `maxSeconds` of timed requests. Failed requests (not 200)
 * are counted apart, the first one's answer kept.
 */
async function timeCase({ base, key, path, runs, warmup, maxSeconds }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(base);
  const headers = { authorization: `Bearer ${key}` };
  const send = (p) => timedGet(agent, target, p, headers, 60_000);
  for (let n = 0; n < warmup; n += 1) await send(path(n));
  const samples = [];
  const rows = [];
  let failed = 0;
  let firstFailure;
  let total;
  const deadline = performance.now() + maxSeconds * 1000;
  for (let n = 0; n < runs && performance.now() < deadline; n += 1) {
    const answer = await send(path(warmup + n)).catch((error) => ({ status: 0, body: Buffer.from(error.message) }));
    if (answer.status !== 200) {
      failed += 1;
      firstFailure ??= `${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`;
      continue;
    }
    samples.push(answer.ms);
    const body = JSON.parse(answer.body.toString('utf8'));
    rows.push(Array.isArray(body.data) ? body.data.length : 0);
    if (body.total_count !== undefined) total = `${body.total_count}${body.total_count_capped ? '+' : ''}`;
  }
  agent.destroy();
  rows.sort((a, b) => a - b);
  return {
    ...summarize(samples),
    failed,
    ...(firstFailure ? { first_failure: firstFailure } : {}),
    rows_median: rows.length ? rows[Math.floor(rows.length / 2)] : NaN,
    ...(total !== undefined ? { total_count: total } : {}),
  };
}

async function measureAll(system, label, owner, ctx) {
  say(`${label}: ${CASES.length} cases, ${options.warmup} + ${options.runs} requests each`);
  // calls-media's own database connections apart from the rest of PostgreSQL (which other sessions on the machine may
  // use too): their CPU per request is what the statements cost, whatever the machine's other load.
  let backends = {};
  const labels = () => ({
    ...backends,
    ...Object.fromEntries(SERVICES.map((app) => [system.pid(app), app]).filter(([pid]) => pid)),
    [process.pid]: 'bench',
  });
  const results = {};
  for (const c of CASES) {
    backends = Object.fromEntries(
      (
        await system.sql(
          'calls-media',
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).map(({ pid }) => [pid, DB_LABEL]),
    );
    // Up to three attempts, each after waiting for a quiet machine; the least disturbed one is kept.
    let result;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      if (options['wait-quiet'] > 0) {
        const other = await waitForQuiet({ labels, waitS: options['wait-quiet'], sampleMs: 2000 });
        if (other > 30)
          say(`  ${c.id}: the machine stays busy (other processes ${other}% of a core); measuring anyway`);
      }
      const attempted = await measured({
        run: () =>
          timeCase({
            base: system.publicUrl,
            key: owner.key,
            path: (n) => pathOf(c, n, ctx),
            runs: options.runs,
            warmup: options.warmup,
            maxSeconds: options['case-seconds'],
          }),
        labels,
        attempts: 1,
        maxForeign: 25,
      });
      if (!result || attempted.foreign_cpu_percent < result.foreign_cpu_percent) result = attempted;
      if (!attempted.disturbed) break;
      if (attempt < 3)
        say(`  ${c.id}: disturbed (other processes used ${attempted.foreign_cpu_percent}% of a core); measuring again`);
    }
    results[c.id] = {
      count: result.count,
      failed: result.failed,
      p50_ms: result.p50_ms,
      p90_ms: result.p90_ms,
      p99_ms: result.p99_ms,
      max_ms: result.max_ms,
      mean_ms: result.mean_ms,
      rows_median: result.rows_median,
      ...(result.total_count !== undefined ? { total_count: result.total_count } : {}),
      ...(result.first_failure ? { first_failure: result.first_failure } : {}),
      cpu_ms_per_request: result.cpu_ms_per_request,
      foreign_cpu_percent: result.foreign_cpu_percent,
      disturbed: result.disturbed,
    };
    say(
      `  ${c.label}: p50 ${fmt(result.p50_ms, 2)} ms, p99 ${fmt(result.p99_ms, 2)} ms (${result.count} timed` +
        `${result.failed ? `, ${result.failed} FAILED: ${result.first_failure}` : ''}; ${result.rows_median} rows` +
        `${result.total_count !== undefined ? `, total_count ${result.total_count}` : ''}; calls-media's DB ` +
        `${fmt(result.cpu_ms_per_request[DB_LABEL] ?? 0, 2)} ms CPU per request` +
        `${result.disturbed ? `; DISTURBED: other processes ${result.foreign_cpu_percent}% of a core` : ''})`,
    );
  }
  return results;
}

// ---------------------------------------------------------------------------------------------- EXPLAIN
/**
 * The statements calls-media runs for one request, from its own code: its built CallsService and CallsRepository
 * over a Kysely whose connection records each statement and runs it on the database (so the service goes on as it
 * would, its later statements included). The query goes through the contract's class as the service receives it.
 */
async function statementsOf(system, accountId, c, ctx) {
  const dist = (path) => require(join(root, 'apps/calls-media/dist', path));
  const { CallsService } = dist('calls/calls.service.js');
  const { CallsRepository } = dist('calls/calls.repository.js');
  const { ListCallsQuery, CallStatsQuery } = require('@switchboard/contracts');
  const { plainToInstance } = require('class-transformer');
  const { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } = require('kysely');
  const { floorPrismaClient } = await import('../floors/same-parts-prisma.mjs');
  const raw = floorPrismaClient(databaseUrl(system.databases['calls-media']), 1);
  const captured = [];
  const connection = {
    async executeQuery({ sql, parameters }) {
      captured.push({ sql, parameters: [...parameters] });
      return { rows: await raw.$queryRawUnsafe(sql, ...parameters) };
    },
    streamQuery() {
      throw new Error('not streamed');
    },
  };
  const kysely = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => ({
        init: async () => undefined,
        acquireConnection: async () => connection,
        beginTransaction: async () => undefined,
        commitTransaction: async () => undefined,
        rollbackTransaction: async () => undefined,
        releaseConnection: async () => undefined,
        destroy: async () => undefined,
      }),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  try {
    const service = new CallsService(new CallsRepository({ $kysely: () => kysely }), undefined);
    const query = Object.fromEntries(
      Object.entries(c.query(0, ctx)).map(([name, value]) => [name, typeof value === 'string' ? value : String(value)]),
    );
    if (c.route === '/v1/calls/stats') await service.stats(accountId, plainToInstance(CallStatsQuery, query));
    else await service.list(accountId, plainToInstance(ListCallsQuery, query));
  } finally {
    await raw.$disconnect();
  }
  return captured;
}

/** A parameter as an SQL literal for EXECUTE (arrays as PostgreSQL array literals). */
function literal(db, value) {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return db.escapeLiteral(value.toISOString());
  if (Array.isArray(value))
    return db.escapeLiteral(`{${value.map((v) => `"${String(v).replace(/(["\\])/g, '\\$1')}"`).join(',')}}`);
  return db.escapeLiteral(String(value));
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a statement as the service meets it: prepared, executed five times, then explained
 * on its sixth execution (PostgreSQL's plan cache may have switched to a generic plan by then); and the custom plan
 * for these parameters, when its shape differs.
 */
async function explain(system, statement) {
  return withClient(databaseUrl(system.databases['calls-media']), async (db) => {
    await db.query(`SET TimeZone = 'UTC'`);
    const args = statement.parameters.map((value) => literal(db, value)).join(', ');
    const execute = `EXECUTE bench_statement${args ? `(${args})` : ''}`;
    await db.query(`PREPARE bench_statement AS ${statement.sql}`);
    for (let n = 0; n < 5; n += 1) await db.query(execute);
    const plan = async () =>
      (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${execute}`)).rows.map((row) => row['QUERY PLAN']).join('\n');
    const asRun = await plan();
    await db.query(`SET plan_cache_mode = force_custom_plan`);
    const custom = await plan();
    const shape = (text) => text.replace(/\(.*?\)/g, '').replace(/^\s*(Planning|Execution).*$/gm, '');
    return {
      sql: statement.sql,
      parameters: statement.parameters,
      plan: asRun,
      ...(shape(custom) !== shape(asRun) ? { custom_plan: custom } : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------------- run
const results = {
  benchmark: 'calls-search',
  started_at: new Date().toISOString(),
  machine: machine(),
  options: { ...options, help: undefined },
  targets: TARGETS,
  anchor: new Date(anchor).toISOString(),
  cases: CASES.map(({ id, label, kind }) => ({ id, label, kind })),
};
let system;
let held = false;
try {
  system = await startSystem({ name: 'benchcalls', env: RUN_ENV, build: !options['no-build'] });
  const { SEARCH_CONFIG: searchConfig, searchDocument } = require(
    join(root, 'apps/calls-media/dist/calls/calls.repository.js'),
  );
  const search = { searchConfig, searchDocument };
  const admin = new Admin(system);
  await admin.setStock('415', 100);
  await admin.setStock('510', 100);
  const a = await benchAccount(system, 'Calls search bench A', 5, '415');
  const b = await benchAccount(system, 'Calls search bench B', 2, '510');
  say(`accounts: A ${a.account.id} (${a.numbers.length} numbers), B ${b.account.id} (${b.numbers.length} numbers)`);

  const seedA1 = (options.seed * 4 + 1) >>> 0;
  const seedA2 = (options.seed * 4 + 2) >>> 0;
  const seedB = (options.seed * 4 + 3) >>> 0;
  const batch = (seed, count, owner) =>
    callBatch({ seed, count, accountId: owner.account.id, numbers: owner.numbers, anchor });
  const smallA = batch(seedA1, options.small, a);
  const ctx = {
    callers: Array.from({ length: 50 }, (_, i) => smallA.call(Math.floor((i * options.small) / 50)).caller),
  };

  // One call through the provider's path into account B: the seed's `search` must be what calls-media writes.
  results.search_parity = await checkSearchParity(system, b, batch(seedB + 1000, 1, b).call(0), search);
  say(
    `search parity with calls-media (one reported call): ${results.search_parity.same ? 'the same tsvector' : 'DIFFERENT'}` +
      `${results.search_parity.search_missing ? ' (calls-media wrote no search)' : ''}`,
  );

  /** How many of account A's calls each search matches (the rare words: the mean of the first ten). */
  const searchMatches = async () => {
    const matches = async (q) =>
      Number(
        (
          await system.sql(
            'calls-media',
            `SELECT count(*) AS n FROM calls WHERE account_id = $1 AND search @@ websearch_to_tsquery($2::regconfig, $3)`,
            [a.account.id, searchConfig, q],
          )
        )[0].n,
      );
    return {
      [COMMON_WORD]: await matches(COMMON_WORD),
      [PHRASE]: await matches(PHRASE),
      rare_word_mean: round(
        (await Promise.all(RARE_WORDS.slice(0, 10).map(matches))).reduce((s, n) => s + n, 0) / 10,
        1,
      ),
    };
  };
  results.seeds = [];
  say(`seeding account A with ${options.small.toLocaleString('en-US')} calls`);
  results.seeds.push({ phase: 'A small', calls: options.small, ...(await seedCalls(system, [smallA], search)) });
  say(`  seeded in ${results.seeds.at(-1).total_s} s (${JSON.stringify(results.seeds.at(-1))})`);
  results.matches_at_small = await searchMatches();
  results.small = await measureAll(system, `account A, ${options.small.toLocaleString('en-US')} calls`, a, ctx);

  const grow = options.large - options.small;
  say(`seeding ${grow.toLocaleString('en-US')} more calls into A and ${options.small.toLocaleString('en-US')} into B`);
  results.seeds.push({
    phase: 'A grown, B',
    calls: grow + options.small,
    ...(await seedCalls(system, [batch(seedA2, grow, a), batch(seedB, options.small, b)], search)),
  });
  say(`  seeded in ${results.seeds.at(-1).total_s} s (${JSON.stringify(results.seeds.at(-1))})`);
  const sizes = await system.sql(
    'calls-media',
    `SELECT pg_relation_size('calls')::bigint AS calls, pg_relation_size('transcript_turns')::bigint AS turns,
            pg_relation_size('calls_search_idx')::bigint AS gin, pg_total_relation_size('calls')::bigint AS calls_total,
            (SELECT count(*) FROM transcript_turns)::bigint AS turn_rows`,
  );
  results.table_mb = Object.fromEntries(
    Object.entries(sizes[0]).map(([name, value]) => [
      name,
      name === 'turn_rows' ? Number(value) : round(Number(value) / 2 ** 20, 0),
    ]),
  );
  results.large = await measureAll(system, `account A, ${options.large.toLocaleString('en-US')} calls`, a, ctx);
  results.small_beside_large = await measureAll(
    system,
    `account B, ${options.small.toLocaleString('en-US')} calls beside A's ${options.large.toLocaleString('en-US')}`,
    b,
    ctx,
  );
  results.matches_at_large = await searchMatches();

  // ------------------------------------------------------------------------------------------ verdicts
  const verdict = verdicts(CASES, results.small, results.large);
  results.verdicts = verdict.rows;
  results.held = held = verdict.held;
  const toExplain =
    options.explain === 'none'
      ? []
      : CASES.filter(
          (c) =>
            options.explain === 'all' || (c.kind !== 'info' && verdict.rows.find((r) => r.id === c.id).held !== true),
        );
  results.explain = {};
  for (const c of toExplain) {
    try {
      const statements = await statementsOf(system, a.account.id, c, ctx);
      results.explain[c.id] = [];
      for (const statement of statements) results.explain[c.id].push(await explain(system, statement));
    } catch (error) {
      results.explain[c.id] = { error: String(error?.stack ?? error) };
    }
  }

  // ------------------------------------------------------------------------------------------ report
  const [S, L] = [shortCount(options.small), shortCount(options.large)];
  const matched = (q) =>
    `${results.matches_at_small[q].toLocaleString('en-US')} and ${results.matches_at_large[q].toLocaleString('en-US')}`;
  out(
    `\nGET /v1/calls and /v1/calls/stats through the gateway, one request at a time: ${options.warmup} warm-up then ` +
      `${options.runs} timed requests per case (ms; * disturbed by other processes, ! failed requests; DB CPU: ` +
      `calls-media's PostgreSQL connections, per request)\n`,
  );
  out(casesTable(verdict.rows, results, { small: S, large: L, db: DB_LABEL }));
  out(
    `\nTargets: q, every filter, the list and include_total: p99 @${L} <= ${TARGETS.growthFactor}x p99 @${S} and ` +
      `< ${TARGETS.maxP99Ms} ms; stats: p99 @${L} < ${TARGETS.statsMaxP99Ms} ms. ` +
      `${held ? 'Every case held.' : 'MISSED:'}`,
  );
  for (const row of verdict.rows.filter((r) => r.kind !== 'info' && r.held !== true))
    out(`- ${row.label}: ${row.why.join('; ')}`);
  out(
    `\nSeeding: ${results.seeds.map((seed) => `${seed.phase} ${seed.calls.toLocaleString('en-US')} calls in ${seed.total_s} s`).join(', ')}; ` +
      `tables: calls ${results.table_mb.calls} MB (with indexes ${results.table_mb.calls_total} MB), GIN ${results.table_mb.gin} MB, ` +
      `transcript_turns ${results.table_mb.turns} MB (${results.table_mb.turn_rows.toLocaleString('en-US')} turns). ` +
      `Calls matched @${S} and @${L}: "${COMMON_WORD}" ${matched(COMMON_WORD)}, ${PHRASE} ${matched(PHRASE)}, ` +
      `a rare word ${results.matches_at_small.rare_word_mean} and ${results.matches_at_large.rare_word_mean} on average. ` +
      `search as calls-media writes it: ${results.search_parity.same ? 'yes' : 'NO'}.`,
  );
  for (const [id, statements] of Object.entries(results.explain)) {
    out(`\nEXPLAIN (ANALYZE, BUFFERS) @${L}, ${CASES.find((c) => c.id === id).label}:`);
    if (!Array.isArray(statements)) {
      out(`  could not capture the statements: ${statements.error}`);
      continue;
    }
    for (const st of statements) {
      out(`\n${st.sql}\n  parameters: ${JSON.stringify(st.parameters)}\n${st.plan}`);
      if (st.custom_plan) out(`\n  custom plan for these parameters:\n${st.custom_plan}`);
    }
  }
  results.finished_at = new Date().toISOString();
  out(`\nresults: ${writeResults('calls-search', results)}`);
  if (options.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  if (options.keep) {
    say(
      `kept: the gateway at ${system.publicUrl} (account A's key ${a.key}, B's ${b.key}); calls-media's database ` +
        `${databaseUrl(system.databases['calls-media'])}. Ctrl-C (or SIGTERM) stops and removes everything.`,
    );
    await new Promise(() => undefined); // system.mjs's signal handlers stop the system and exit
  }
} catch (error) {
  console.error(error);
  system?.printLogs();
  process.exitCode = 1;
} finally {
  await system?.stop();
}
if (process.exitCode === undefined && !held) process.exitCode = 1;
