#!/usr/bin/env node
// node tools/perf/bench/capacity.mjs [--calls 10000000] [--numbers 100000] [--accounts 10000] [--months 12] [--keep]
//
// calls-media's database at a deployment's size, measured straight in PostgreSQL (no services): what calls and their
// transcripts take on disk per million calls, how fast one account's list, deep pages and export run at that size,
// how fast new calls are written while the retention sweep deletes a month of one account, and how fast the sweep is.
// The figures behind docs/capacity.md.
//
// 1. A fresh database sb_capacity_bench_<random> with calls-media's migrations applied (each migration.sql of
//    apps/calls-media/prisma/migrations in order, as `prisma migrate deploy` would run them).
// 2. A pool of --pool conversations from the calls corpus (tools/perf/lib/call-corpus.mjs: a restaurant's calls, about
//    8 turns, Zipf-like words), each turn lengthened to about 80 characters and each summary to about 150 (a second
//    sentence), with its search vector computed once as calls-media writes it: to_tsvector('english', summary and
//    turns joined by newlines). Then --calls calls seeded by set-based SQL (INSERT ... SELECT over generate_series, in
//    batches of --batch, calls on one connection and their turns on another), spread evenly over --months months
//    before now, over --numbers numbers of --accounts accounts: account 0 (the large account) holds --large-numbers
//    numbers and takes --large-share of the calls, the other numbers are split evenly between the other accounts and
//    take calls by a skewed law (the first accounts busiest). Each call takes its conversation from the pool (call k:
//    a hash of k), so its outcome, duration, summary, analysis, transcript and search vector belong together; caller
//    (E.164 from 5 million, skewed), direction, status and start time are drawn per call; --recorded of the calls have
//    a recording (key, size at 16 KB/s of duration, etag). The tables' indexes and constraints are dropped while
//    loading and rebuilt after it from their definitions in the catalog (as the migrations made them); then VACUUM
//    ANALYZE and a checkpoint.
// 3. Sizes: each table, its heap, TOAST and every index (pg_total_relation_size, pg_relation_size, pg_indexes_size),
//    per million calls.
// 4. The large account: its first page (GET /v1/calls, 51 rows) and a deep page (the call of `starting_after` looked up,
//    then the keyset page after it) --runs times each; an export's full keyset walk in chunks of 500 with transcripts
//    (the statements of CallsService.exportChunk); the statements are copied from calls.repository.ts.
// 5. Writes and the retention sweep: two connections record new calls, one statement each as CallReportsRepository
//    .addRecorded writes them (report, call with its search vector, turns, outbox row), for --insert-seconds alone, then
//    while the retention sweep (the expireRecordings / expireTranscripts batches of 500 of
//    call-data-deletions.repository.ts, each in a transaction under the sweep's advisory lock) deletes the oldest month
//    of the large account; then the sweep alone over the next month; then VACUUM of both tables after the deletions,
//    and the sweep's statements when 1,000 or every account has settings but nothing expires.
// 6. The turns as one row per call (jsonb) instead of one row per turn, for the pool's conversations: bytes per call.
//
// Results: tables on stdout, JSON in tools/perf/results/capacity-<timestamp>.json. The database is dropped at the end
// (also on Ctrl-C) unless --keep. Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432).
// At 10,000,000 calls: about 40 GB of disk while it runs, 41 min on 2 cores.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { callBatch, mixSeed } from '../lib/call-corpus.mjs';
import {
  accountId,
  accountIdSql,
  accountOfNumber,
  accountOfNumberSql,
  conversationOf,
  conversationOfSql,
  DAY_MS,
  exportChunk,
  layout,
  numberId,
  numberIdSql,
  numberOfCall,
  numberOfCallSql,
  phoneNumber,
  phoneNumberSql,
  rate,
  retentionDaysExpiring,
  sizesTable,
  spanDays,
} from '../lib/capacity-plan.mjs';
import { fmt, int, machine, require, root, say, table, timeRuns, writeResults } from '../lib/common.mjs';
import { commandLine } from '../lib/options.mjs';
import { createDatabase, databaseUrl, dropDatabase, dropIndexes, rebuildIndexes } from '../lib/postgres.mjs';
import { mulberry32 } from '../lib/random.mjs';
import { round, summarize } from '../lib/stats.mjs';

const options = commandLine('node tools/perf/bench/capacity.mjs', {
  calls: { type: 'number', default: 10_000_000, min: 10_000, help: 'calls seeded' },
  numbers: { type: 'number', default: 100_000, min: 100, help: 'numbers the calls are spread over' },
  accounts: { type: 'number', default: 10_000, min: 10, help: 'accounts holding the numbers' },
  months: { type: 'number', default: 12, min: 3, help: 'months before now the calls are spread over' },
  'large-share': { type: 'number', default: 0.1, min: 0.001, help: "the large account's share of the calls" },
  'large-numbers': { type: 'number', default: 1000, min: 1, help: "the large account's numbers" },
  recorded: { type: 'number', default: 0.7, min: 0, help: 'share of calls with a recording' },
  pool: { type: 'number', default: 200_000, min: 1000, help: 'distinct conversations the calls take their words from' },
  batch: { type: 'number', default: 500_000, min: 1000, help: 'calls per INSERT ... SELECT' },
  runs: { type: 'number', default: 200, min: 10, help: 'timed runs of each list statement' },
  'insert-seconds': { type: 'number', default: 30, min: 5, help: 'seconds of inserts alone before the sweep' },
  seed: { type: 'number', default: 1, min: 0, help: 'seed of the conversations and of the random draws' },
  keep: { type: 'boolean', default: false, help: 'keep the database at the end (its name is printed)' },
});

const { Client } = require('pg');
// Not sb_bench_*: every benchmark's start (tools/perf/lib/system.mjs) drops sb_bench_<stamp>_* databases whose stamp
// reads as older than an hour, and `capacity` read as a base-36 stamp is from 1999: another session's benchmark would
// drop this database mid-run.
const DATABASE = `sb_capacity_bench_${randomBytes(4).toString('hex')}`;
const URL_ = databaseUrl(DATABASE);
const MIGRATIONS = join(root, 'apps/calls-media/prisma/migrations');
const SEARCH_CONFIG = 'english';
const MAX_SEARCH_DOCUMENT_LENGTH = 200_000;
const PAGE_LIMIT = 50; // DEFAULT_PAGE_LIMIT; the service asks for one more
const EXPORT_CHUNK_MAX_ROWS = 500;
const EXPORT_CHUNK_MAX_BYTES = 512 * 1024;
const RETENTION_BATCH = 500;
const RETENTION_SWEEP_LOCK = 0x5b_7e_7e_01;
/** The tables the new calls and the retention sweep write, sized before and after the sweep. */
const SWEPT_TABLES = ['calls', 'transcript_turns', 'call_reports', 'outbox_events', 'pending_object_deletions'];
const L = layout({
  numbers: options.numbers,
  accounts: options.accounts,
  largeNumbers: options['large-numbers'],
  largeShare: options['large-share'],
});
const SPAN_DAYS = spanDays(options.months);
const anchor = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const LARGE = accountId(0);
const out = (text) => console.log(text);
const ms = (start) => performance.now() - start;

// ---------------------------------------------------------------------------------------------- connections
const clients = new Set();
async function connect() {
  const client = new Client({ connectionString: URL_ });
  await client.connect();
  clients.add(client);
  client.on('error', () => undefined);
  return client;
}
async function release(client) {
  clients.delete(client);
  await client.end().catch(() => undefined);
}
async function withClient(work) {
  const client = await connect();
  try {
    return await work(client);
  } finally {
    await release(client);
  }
}
let dropped = false;
async function cleanUp() {
  if (dropped || options.keep) return;
  dropped = true;
  await Promise.allSettled([...clients].map((c) => c.end()));
  await dropDatabase(DATABASE);
  say(`dropped ${DATABASE}`);
}
process.on('unhandledRejection', (error) => {
  console.error(error);
  cleanUp()
    .catch((e) => console.error(e))
    .finally(() => process.exit(1));
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.log(`\n${signal}: dropping ${DATABASE}`);
    cleanUp()
      .catch((error) => console.error(error))
      .finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------- conversations
const AGENT_MORE = [
  'Is there anything else I can help you with today?',
  'Let me just confirm that for you.',
  'I can also send you a text confirmation.',
  'It is a busy night, so thank you for your patience.',
  'Would you like to add a drink or a dessert?',
  'I have noted that on the order.',
  'You can also find our full menu on our website.',
  'We appreciate you calling us today.',
  'Delivery is free on orders over thirty dollars.',
  'I will let the manager know as well.',
  'One moment while I pull that up.',
  'That is no problem at all.',
];
const CALLER_MORE = [
  'Sorry, it is a bit loud where I am.',
  'Yeah, that sounds good to me.',
  'Okay, let me think for a second.',
  'My wife wants to know that too.',
  'I called earlier but nobody picked up.',
  'Can you repeat that, please?',
  'That would be great, thank you.',
  'I am not sure, maybe, let me check.',
  'We are on our way home now.',
  'Hold on, let me look at my calendar.',
  'It is for my parents, they are visiting.',
  'Last time it took over an hour.',
];
const FEELING = { positive: 'pleased', neutral: 'calm', negative: 'frustrated', unknown: 'hard to read' };
const ENDING = {
  order_placed: 'with the order confirmed and paid',
  question_answered: 'once every question was answered',
  reservation_booked: 'with the booking confirmed by text',
  transferred: 'with a transfer to a member of staff',
  message_taken: 'with a message passed on to the owner',
  no_action: 'without any request',
  order_status: 'after the order status was checked',
  complaint: 'after the complaint was logged for the manager',
};

/**
 * Call k of a corpus batch made longer, as a production agent's calls are: each turn about 80 characters (a second
 * sentence on 9 turns in 10) and the summary about 150 (a second sentence on the caller's mood and how it ended).
 */
function conversation(batch, seed, k) {
  const call = batch.call(k);
  const rand = mulberry32(mixSeed(seed ^ 0x0c0ffee, k));
  const turns = call.turns.map((turn) => {
    if (rand() >= 0.9) return turn;
    const more = turn.role === 'agent' ? AGENT_MORE : CALLER_MORE;
    return { role: turn.role, text: `${turn.text} ${more[Math.floor(rand() * more.length)]}` };
  });
  const minutes = Math.max(1, Math.round(call.duration_sec / 60));
  const summary =
    call.summary === null
      ? null
      : `${call.summary} The caller sounded ${FEELING[call.sentiment]}; the call took ${minutes} minute${minutes === 1 ? '' : 's'} and ended ${ENDING[call.outcome] ?? 'normally'}.`;
  return { ...call, turns, summary };
}

/** calls.repository.ts `searchDocument`: the summary, then the turns, joined by newlines, cut at the maximum. */
const searchDocument = (summary, turns) =>
  [summary ?? '', ...turns.map((turn) => turn.text)].join('\n').slice(0, MAX_SEARCH_DOCUMENT_LENGTH);

// ---------------------------------------------------------------------------------------------- migrations, pool
async function migratedDatabase() {
  await createDatabase(DATABASE);
  const folders = readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  await withClient(async (db) => {
    for (const folder of folders) await db.query(readFileSync(join(MIGRATIONS, folder, 'migration.sql'), 'utf8'));
  });
  return folders;
}

async function loadPool(db) {
  const started = performance.now();
  await db.query(`CREATE TABLE bench_conv (conv int PRIMARY KEY, outcome text, duration_sec int, summary text,
      sentiment text, successful boolean, custom_analysis jsonb, turn_count int, document text, search tsvector);
    CREATE TABLE bench_turns (conv int, position int, role text, text text, PRIMARY KEY (conv, position))`);
  const seed = (options.seed * 7 + 5) >>> 0;
  const batch = callBatch({
    seed,
    count: options.pool,
    accountId: LARGE,
    numbers: [{ id: numberId(0), phone_number: phoneNumber(0) }],
    anchor,
  });
  const turnCounts = new Int32Array(options.pool);
  const stats = { turns: 0, turn_chars: 0, summaries: 0, summary_chars: 0, duration_sec: 0, document_chars: 0 };
  const CHUNK = 5000;
  for (let from = 0; from < options.pool; from += CHUNK) {
    const conv = { conv: [], outcome: [], duration: [], summary: [], sentiment: [], successful: [], custom: [] };
    conv.count = [];
    conv.document = [];
    const turns = { conv: [], position: [], role: [], text: [] };
    for (let k = from; k < Math.min(options.pool, from + CHUNK); k += 1) {
      const call = conversation(batch, seed, k);
      const document = searchDocument(call.summary, call.turns);
      conv.conv.push(k);
      conv.outcome.push(call.outcome);
      conv.duration.push(call.duration_sec);
      conv.summary.push(call.summary);
      conv.sentiment.push(call.sentiment);
      conv.successful.push(call.successful);
      conv.custom.push(JSON.stringify(call.custom));
      conv.count.push(call.turns.length);
      conv.document.push(document);
      turnCounts[k] = call.turns.length;
      stats.turns += call.turns.length;
      stats.duration_sec += call.duration_sec;
      stats.document_chars += document.length;
      if (call.summary !== null) {
        stats.summaries += 1;
        stats.summary_chars += call.summary.length;
      }
      call.turns.forEach((turn, position) => {
        turns.conv.push(k);
        turns.position.push(position);
        turns.role.push(turn.role);
        turns.text.push(turn.text);
        stats.turn_chars += turn.text.length;
      });
    }
    await db.query(
      `INSERT INTO bench_conv (conv, outcome, duration_sec, summary, sentiment, successful, custom_analysis, turn_count, document)
       SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::boolean[], $7::jsonb[], $8::int[], $9::text[])`,
      [
        conv.conv,
        conv.outcome,
        conv.duration,
        conv.summary,
        conv.sentiment,
        conv.successful,
        conv.custom,
        conv.count,
        conv.document,
      ],
    );
    await db.query(
      `INSERT INTO bench_turns (conv, position, role, text) SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[])`,
      [turns.conv, turns.position, turns.role, turns.text],
    );
  }
  await db.query(`UPDATE bench_conv SET search = to_tsvector($1::regconfig, document)`, [SEARCH_CONFIG]);
  await db.query('VACUUM ANALYZE bench_conv');
  await db.query('VACUUM ANALYZE bench_turns');
  const [{ lexemes }] = (await db.query('SELECT avg(length(search))::float AS lexemes FROM bench_conv')).rows;
  const n = options.pool;
  return {
    turnCounts,
    stats: {
      conversations: n,
      seconds: round(ms(started) / 1000, 1),
      turns_per_call: round(stats.turns / n, 2),
      chars_per_turn: round(stats.turn_chars / stats.turns, 1),
      summary_share: round(stats.summaries / n, 3),
      chars_per_summary: round(stats.summary_chars / stats.summaries, 1),
      search_document_chars: round(stats.document_chars / n, 1),
      lexemes_per_call: round(lexemes, 1),
      mean_duration_sec: round(stats.duration_sec / n, 1),
    },
  };
}

// ---------------------------------------------------------------------------------------------- seeding
const CALL_SEED_SQL = (pool) => `
  INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec, started_at,
                     has_transcript, recording_key, recording_size, recording_etag, recording_content_type, created_at,
                     summary, sentiment, successful, custom_analysis, search)
  SELECT g.id, ${accountIdSql(accountOfNumberSql(L, 'g.number'))}, ${numberIdSql('g.number')}, ${phoneNumberSql('g.number')},
         '+1' || (3000000000 + floor(5000000 * g.r_caller * g.r_caller))::bigint::text,
         CASE WHEN g.r_direction < 0.96 THEN 'inbound' ELSE 'outbound' END,
         CASE WHEN g.r_status < 0.95 THEN 'completed' WHEN g.r_status < 0.97 THEN 'failed'
              WHEN g.r_status < 0.985 THEN 'busy' ELSE 'no-answer' END,
         p.outcome, p.duration_sec, g.started_at, p.turn_count > 0,
         CASE WHEN g.r_recorded < $5 THEN g.id || '.mp3' END,
         CASE WHEN g.r_recorded < $5 THEN greatest(1, p.duration_sec) * 16000 END,
         CASE WHEN g.r_recorded < $5 THEN md5(g.id) END,
         CASE WHEN g.r_recorded < $5 THEN 'audio/mpeg' END,
         g.started_at + make_interval(secs => p.duration_sec + 3),
         p.summary, p.sentiment, p.successful, p.custom_analysis, p.search
    FROM (SELECT s.*, ${numberOfCallSql(L, 's.r_large', 's.r_number')} AS number
            FROM (SELECT k, 'CA' || md5(k::text) AS id, ${conversationOfSql('k', pool)} AS conv,
                         $3::timestamptz + make_interval(secs => (k + random()) / $4::float8 * ${SPAN_DAYS * 86400}) AS started_at,
                         random() AS r_large, random() AS r_number, random() AS r_caller, random() AS r_direction,
                         random() AS r_status, random() AS r_recorded
                    FROM generate_series($1::bigint, $2::bigint) AS k
                  OFFSET 0) AS s) AS g
    JOIN bench_conv p ON p.conv = g.conv`;

const TURN_SEED_SQL = (pool) => `
  INSERT INTO transcript_turns (call_id, position, role, text)
  SELECT g.id, t.position, t.role, t.text
    FROM (SELECT k, 'CA' || md5(k::text) AS id, ${conversationOfSql('k', pool)} AS conv
            FROM generate_series($1::bigint, $2::bigint) AS k OFFSET 0) AS g
    JOIN bench_turns t ON t.conv = g.conv`;

/** Calls on one connection, their turns on another, batch by batch (each table written in start-time order). */
async function seed(turnCounts) {
  const C = options.calls;
  const batches = [];
  for (let from = 0; from < C; from += options.batch) batches.push([from, Math.min(C, from + options.batch) - 1]);
  const first = new Date(anchor - SPAN_DAYS * DAY_MS).toISOString();
  const session = async (db) =>
    db.query(
      `SET work_mem = '256MB'; SET enable_hashjoin = off; SET enable_mergejoin = off; SET synchronous_commit = off`,
    );
  const progress = { calls: 0, turns: 0 };
  const started = performance.now();
  let lastReport = 0;
  const report = () => {
    const s = ms(started) / 1000;
    if (s - lastReport < 30 && progress.calls < C) return;
    lastReport = s;
    say(
      `  ${int(progress.calls)} of ${int(C)} calls (${int(progress.calls / s)}/s), ${int(progress.turns)} turns (${int(progress.turns / s)}/s), ${fmt(s, 0)} s`,
    );
  };
  const times = { calls_s: 0, turns_s: 0 };
  await Promise.all([
    withClient(async (db) => {
      await session(db);
      for (const [i, [from, to]] of batches.entries()) {
        await db.query('SELECT setseed($1)', [((options.seed * 7919 + i) % 10_000) / 10_000 - 0.5]);
        const t = performance.now();
        await db.query(CALL_SEED_SQL(options.pool), [from, to, first, C, options.recorded]);
        progress.calls += to - from + 1;
        report();
        times.calls_s += ms(t) / 1000;
      }
    }),
    withClient(async (db) => {
      await session(db);
      for (const [from, to] of batches) {
        const t = performance.now();
        const { rowCount } = await db.query(TURN_SEED_SQL(options.pool), [from, to]);
        progress.turns += rowCount;
        report();
        times.turns_s += ms(t) / 1000;
      }
    }),
  ]);
  let expectedTurns = 0;
  for (let k = 0; k < C; k += 1) expectedTurns += turnCounts[conversationOf(k, options.pool)];
  if (expectedTurns !== progress.turns) throw new Error(`seeded ${progress.turns} turns, expected ${expectedTurns}`);
  const wall = ms(started) / 1000;
  return {
    calls: C,
    turns: progress.turns,
    wall_s: round(wall, 1),
    calls_statement_s: round(times.calls_s, 1),
    turns_statement_s: round(times.turns_s, 1),
    calls_per_s: round(C / times.calls_s, 0),
    turns_per_s: round(progress.turns / times.turns_s, 0),
    calls_per_s_wall: round(C / wall, 0),
  };
}

// ---------------------------------------------------------------------------------------------- sizes
async function sizes(db, tables) {
  const result = {};
  for (const t of tables) {
    const [row] = (
      await db.query(
        `SELECT pg_total_relation_size($1::regclass)::bigint AS total, pg_relation_size($1::regclass)::bigint AS heap,
                pg_indexes_size($1::regclass)::bigint AS indexes,
                coalesce(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0)::bigint AS toast,
                c.reltuples::bigint AS rows_estimate, s.n_live_tup::bigint AS live, s.n_dead_tup::bigint AS dead
           FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = $1::regclass`,
        [t],
      )
    ).rows;
    const indexes = (
      await db.query(
        `SELECT i.indexrelid::regclass::text AS name, pg_relation_size(i.indexrelid)::bigint AS bytes
           FROM pg_index i WHERE i.indrelid = $1::regclass ORDER BY 2 DESC`,
        [t],
      )
    ).rows;
    result[t] = {
      total: Number(row.total),
      heap: Number(row.heap),
      toast: Number(row.toast),
      indexes: Number(row.indexes),
      rows_estimate: Number(row.rows_estimate),
      live_tuples: Number(row.live),
      dead_tuples: Number(row.dead),
      index: Object.fromEntries(indexes.map((index) => [index.name, Number(index.bytes)])),
    };
  }
  const [{ db_bytes }] = (await db.query('SELECT pg_database_size(current_database())::bigint AS db_bytes')).rows;
  return { tables: result, database: Number(db_bytes) };
}

// ---------------------------------------------------------------------------------------------- statements
/** calls.repository.ts CALL_COLUMNS, as Kysely quotes them. */
const COLUMNS = (
  'id seq account_id number_id phone_number caller direction status ' +
  'outcome duration_sec started_at has_transcript recording_key recording_size recording_etag ' +
  'recording_content_type summary sentiment successful custom_analysis ' +
  'recording_deleted_at recording_deleted_by transcript_deleted_at transcript_deleted_by'
)
  .split(' ')
  .map((column) => `"${column}"`)
  .join(', ');
/** The unfiltered first page (callsFirstPage). */
const FIRST_PAGE_SQL = `select ${COLUMNS} from "calls" where "account_id" = $1 order by "started_at" desc, "seq" desc limit $2`;
/** A page after a call (list with `after`): the row comparison on (started_at, seq). */
const AFTER_PAGE_SQL = `select ${COLUMNS} from "calls" where "account_id" = $1 and (started_at, seq) < ($2::timestamptz, $3::bigint) order by "started_at" desc, "seq" desc limit $4`;
/** findForAccount (starting_after's call). */
const FIND_SQL = `select ${COLUMNS} from "calls" where "id" = $1 and "account_id" = $2`;
/** transcriptsOf (an export chunk's transcripts). */
const TRANSCRIPTS_SQL = `select "call_id", "role", "text" from "transcript_turns" where "call_id" = ANY($1::text[]) order by "call_id", "position"`;

/** call-data-deletions.repository.ts expireRecordings, parameters as Kysely numbers them. */
const EXPIRE_RECORDINGS_SQL = `
        WITH expired AS (
          SELECT c.id, c.recording_key
            FROM account_data_settings s
            CROSS JOIN LATERAL (
              SELECT id, recording_key FROM calls
               WHERE account_id = s.account_id AND recording_key IS NOT NULL
                 AND started_at < $1::timestamptz - make_interval(days => s.recordings_days)
               ORDER BY started_at LIMIT $2::int
                 FOR UPDATE SKIP LOCKED
            ) AS c
           WHERE s.recordings_days IS NOT NULL
           LIMIT $3::int
        ),
        cleared AS (
          UPDATE calls SET recording_key = NULL, recording_size = NULL, recording_etag = NULL,
                           recording_deleted_at = $4::timestamptz, recording_deleted_by = 'retention'
            FROM expired WHERE calls.id = expired.id
          RETURNING expired.recording_key AS key, calls.id
        ),
        queued AS (
          INSERT INTO pending_object_deletions (key, call_id) SELECT key, id FROM cleared ON CONFLICT (key) DO NOTHING
        )
        SELECT count(*)::int AS count FROM cleared`;
/** expireTranscripts. */
const EXPIRE_TRANSCRIPTS_SQL = `
        WITH expired AS (
          SELECT c.id
            FROM account_data_settings s
            CROSS JOIN LATERAL (
              SELECT id FROM calls
               WHERE account_id = s.account_id
                 AND transcript_deleted_at IS NULL AND (has_transcript OR summary IS NOT NULL)
                 AND started_at < $1::timestamptz - make_interval(days => s.transcripts_days)
               ORDER BY started_at LIMIT $2::int
                 FOR UPDATE SKIP LOCKED
            ) AS c
           WHERE s.transcripts_days IS NOT NULL
           LIMIT $3::int
        ),
        turns AS (
          DELETE FROM transcript_turns USING expired WHERE transcript_turns.call_id = expired.id
        ),
        cleared AS (
          UPDATE calls SET has_transcript = false, summary = NULL, search = NULL,
                           transcript_deleted_at = $4::timestamptz, transcript_deleted_by = 'retention'
            FROM expired WHERE calls.id = expired.id
          RETURNING calls.id
        )
        SELECT count(*)::int AS count FROM cleared`;

/** One sweep batch as the service runs it: a transaction, the sweep's advisory lock, the statement. */
async function sweepBatch(db, statement, now) {
  await db.query('BEGIN');
  try {
    const { rows } = await db.query('SELECT pg_try_advisory_xact_lock($1::bigint) AS locked', [RETENTION_SWEEP_LOCK]);
    if (!rows[0].locked) throw new Error('the sweep lock is held');
    const at = now.toISOString();
    const result = await db.query(statement, [at, RETENTION_BATCH, RETENTION_BATCH, at]);
    await db.query('COMMIT');
    return result.rows[0].count;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** CallDataService.sweep: recordings batch by batch until a batch is short, then transcripts. */
async function sweep(db, now) {
  const result = {};
  for (const [kind, statement] of [
    ['recordings', EXPIRE_RECORDINGS_SQL],
    ['transcripts', EXPIRE_TRANSCRIPTS_SQL],
  ]) {
    const samples = [];
    let count = 0;
    const started = performance.now();
    for (;;) {
      const t = performance.now();
      const n = await sweepBatch(db, statement, now);
      samples.push(ms(t));
      count += n;
      if (n < RETENTION_BATCH) break;
    }
    const elapsed = ms(started);
    const s = summarize(samples);
    result[kind] = {
      calls: count,
      batches: samples.length,
      seconds: round(elapsed / 1000, 1),
      calls_per_s: round(rate(count, elapsed), 0),
      batch_p50_ms: s.p50_ms,
      batch_p99_ms: s.p99_ms,
    };
    say(
      `  ${kind}: ${int(count)} calls in ${fmt(elapsed / 1000)} s (${int(rate(count, elapsed))}/s; batch p50 ${s.p50_ms} ms, p99 ${s.p99_ms} ms)`,
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------- new calls
/** CallReportsRepository.addRecorded: one statement (report, call, turns, lost item, dropped recording, outbox). */
function recordCallStatement(call) {
  const values = [];
  const p = (value) => {
    values.push(value);
    return `$${values.length}`;
  };
  const at = new Date().toISOString();
  const rec = call.recording;
  const turns = call.turns;
  const text = `
    WITH report AS (
      INSERT INTO call_reports (call_sid, "to", started_at, state, recording_key, recording_size, recording_etag, received_at, settled_at)
      VALUES (${p(call.id)}, ${p(call.phone_number)}, ${p(call.started_at)}::timestamptz, 'recorded',
              ${p(rec?.key ?? null)}, ${p(rec?.size ?? null)}::int, ${p(rec?.etag ?? null)},
              ${p(at)}::timestamptz, ${p(at)}::timestamptz)
      ON CONFLICT (call_sid) DO NOTHING
      RETURNING call_sid
    ),
    call AS (
      INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec, started_at,
                         has_transcript, recording_key, recording_size, recording_etag, recording_content_type,
                         summary, sentiment, successful, custom_analysis, search)
      SELECT call_sid, ${p(call.account_id)}, ${p(call.number_id)}, ${p(call.phone_number)}, ${p(call.caller)}, ${p(call.direction)},
             ${p(call.status)}, ${p(call.outcome)}, ${p(call.duration_sec)}::int, ${p(call.started_at)}::timestamptz,
             ${p(turns.length > 0)}::boolean, ${p(rec?.key ?? null)}, ${p(rec?.size ?? null)}::int, ${p(rec?.etag ?? null)},
             ${p(rec ? 'audio/mpeg' : null)}, ${p(call.summary)}, ${p(call.sentiment)}, ${p(call.successful)}::boolean,
             ${p(JSON.stringify(call.custom))}::jsonb, to_tsvector(${p(SEARCH_CONFIG)}::regconfig, ${p(searchDocument(call.summary, turns))})
        FROM report
      RETURNING id
    ),
    turns AS (
      INSERT INTO transcript_turns (call_id, position, role, text)
      SELECT call.id, turn.position, turn.role, turn.text
        FROM call, unnest(${p(turns.map((_, i) => i))}::int[], ${p(turns.map((t) => t.role))}::text[], ${p(turns.map((t) => t.text))}::text[])
             AS turn(position, role, text)
    ),
    lost_item AS (
      INSERT INTO lost_item_reports (call_sid, account_id, number_id, caller, caller_name, category, description, color, where_lost, lost_at)
      SELECT call_sid, ${p(call.account_id)}, ${p(call.number_id)}, ${p(call.caller)}, ${p('')}, ${p('')},
             ${p('')}, ${p('')}, ${p('')}, ${p('')}
        FROM report WHERE ${p(false)}::boolean
    ),
    dropped AS (
      INSERT INTO pending_object_deletions (key, call_id)
      SELECT ${p(null)}::text, call_sid FROM report WHERE ${p(null)}::text IS NOT NULL
      ON CONFLICT (key) DO NOTHING
    ),
    outbox AS (
      INSERT INTO outbox_events (id, type, payload, headers)
      SELECT row.id, row.type, row.payload, row.headers
        FROM report, unnest(${p([call.outbox.id])}::uuid[], ${p(['call.completed'])}::text[],
                            ${p([JSON.stringify(call.outbox.payload)])}::jsonb[], ${p([JSON.stringify(call.outbox.headers)])}::jsonb[])
             AS row(id, type, payload, headers)
    )
    SELECT call_sid FROM report`;
  return { text, values };
}

/** New calls for the insert workers: conversations from another corpus seed, placed on the layout's numbers now. */
function newCalls(count) {
  const seed = (options.seed * 7 + 6) >>> 0;
  const batch = callBatch({
    seed,
    count,
    accountId: LARGE,
    numbers: [{ id: numberId(0), phone_number: phoneNumber(0) }],
    anchor,
  });
  const rand = mulberry32(seed);
  return Array.from({ length: count }, (_, k) => {
    const c = conversation(batch, seed, k);
    const n = numberOfCall(L, rand(), rand());
    const id = `CA${randomBytes(16).toString('hex')}`;
    const recorded = rand() < options.recorded;
    const account = accountId(accountOfNumber(L, n));
    const startedAt = new Date(Date.now() - c.duration_sec * 1000 - 5000).toISOString();
    const analysis = { summary: c.summary, sentiment: c.sentiment, successful: c.successful, custom: c.custom };
    const eventId = randomUUID();
    return {
      ...c,
      id,
      account_id: account,
      number_id: numberId(n),
      phone_number: phoneNumber(n),
      started_at: startedAt,
      recording: recorded
        ? { key: `${id}.mp3`, size: Math.max(1, c.duration_sec) * 16_000, etag: randomBytes(16).toString('hex') }
        : null,
      outbox: {
        id: eventId,
        payload: {
          id: eventId,
          type: 'call.completed',
          occurred_at: new Date().toISOString(),
          correlation_id: randomUUID(),
          causation_id: id,
          data: {
            call_sid: id,
            account_id: account,
            number_id: numberId(n),
            phone_number: phoneNumber(n),
            caller: c.caller,
            direction: c.direction,
            status: c.status,
            outcome: c.outcome,
            duration_sec: c.duration_sec,
            started_at: startedAt,
            has_recording: recorded,
            has_transcript: c.turns.length > 0,
            analysis,
          },
        },
        headers: { traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` },
      },
    };
  });
}

/** A new call's copy with ids of its own (SID, recording key, event id): every statement writes a new call. */
function fresh(call) {
  const id = `CA${randomBytes(16).toString('hex')}`;
  const eventId = randomUUID();
  return {
    ...call,
    id,
    recording: call.recording ? { ...call.recording, key: `${id}.mp3` } : null,
    outbox: {
      ...call.outbox,
      id: eventId,
      payload: {
        ...call.outbox.payload,
        id: eventId,
        causation_id: id,
        data: { ...call.outbox.payload.data, call_sid: id },
      },
    },
  };
}

/** Two connections inserting calls one statement at a time until `stop()`; `mark()` starts a new window. */
function insertWorkers(calls) {
  let next = 0;
  let stopping = false;
  let failure;
  let window = { started: performance.now(), count: 0, samples: [] };
  const workers = [0, 1].map(() =>
    withClient(async (db) => {
      while (!stopping) {
        const call = fresh(calls[next % calls.length]);
        next += 1;
        const { text, values } = recordCallStatement(call);
        const t = performance.now();
        const { rows } = await db.query(text, values);
        if (rows.length !== 1) throw new Error('a new call was not recorded');
        window.samples.push(ms(t));
        window.count += 1;
      }
    }).catch((error) => {
      failure ??= error;
      stopping = true;
    }),
  );
  const close = () => {
    const elapsed = ms(window.started);
    const s = summarize(window.samples);
    return {
      calls: window.count,
      seconds: round(elapsed / 1000, 1),
      calls_per_s: round(rate(window.count, elapsed), 0),
      p50_ms: s.p50_ms,
      p99_ms: s.p99_ms,
    };
  };
  return {
    mark() {
      const result = close();
      window = { started: performance.now(), count: 0, samples: [] };
      return result;
    },
    async stop() {
      stopping = true;
      await Promise.all(workers);
      if (failure) throw failure;
      return close();
    },
  };
}

// ---------------------------------------------------------------------------------------------- server
async function serverFacts(db) {
  const settings = {};
  const names =
    'shared_buffers work_mem maintenance_work_mem effective_cache_size max_wal_size checkpoint_timeout ' +
    'synchronous_commit autovacuum random_page_cost max_parallel_workers_per_gather max_parallel_maintenance_workers';
  for (const name of names.split(' '))
    settings[name] = (await db.query(`SELECT current_setting($1) AS v`, [name])).rows[0].v;
  const [{ version }] = (await db.query('SELECT version()')).rows;
  return { version, settings };
}

// ---------------------------------------------------------------------------------------------- run
const results = {
  benchmark: 'capacity',
  started_at: new Date().toISOString(),
  machine: { ...machine(), nproc: cpus().length, memory_bytes: totalmem() },
  options: { ...options, help: undefined },
  database: DATABASE,
  anchor: new Date(anchor).toISOString(),
  span_days: SPAN_DAYS,
};
try {
  say(
    `database ${DATABASE}: ${int(options.calls)} calls over ${options.months} months, ${int(options.numbers)} numbers, ${int(options.accounts)} accounts`,
  );
  results.migrations = await migratedDatabase();
  results.server = await withClient(serverFacts);
  say(`migrations applied (${results.migrations.length}); ${results.server.version.split(' on ')[0]}`);

  // ------------------------------------------------------------------------------------------ seed
  const pool = await withClient(loadPool);
  results.conversations = pool.stats;
  say(`pool: ${JSON.stringify(pool.stats)}`);
  const saved = await withClient((db) => dropIndexes(db, ['calls', 'transcript_turns']));
  say(`seeding in batches of ${int(options.batch)} (calls and turns on two connections)`);
  results.seed = await seed(pool.turnCounts);
  say(`  seeded: ${JSON.stringify(results.seed)}`);
  let t = performance.now();
  results.seed.index_build_s = await rebuildIndexes(saved, withClient, (name, s) => say(`  built ${name} in ${s} s`));
  results.seed.indexes_wall_s = round(ms(t) / 1000, 1);
  t = performance.now();
  await Promise.all(
    ['calls', 'transcript_turns'].map((table) => withClient((db) => db.query(`VACUUM (ANALYZE) ${table}`))),
  );
  await withClient((db) => db.query('CHECKPOINT'));
  results.seed.vacuum_analyze_checkpoint_s = round(ms(t) / 1000, 1);
  results.seed.total_s = round(
    results.seed.wall_s + results.seed.indexes_wall_s + results.seed.vacuum_analyze_checkpoint_s,
    1,
  );
  say(
    `indexes in ${results.seed.indexes_wall_s} s, VACUUM ANALYZE and checkpoint in ${results.seed.vacuum_analyze_checkpoint_s} s`,
  );

  // ------------------------------------------------------------------------------------------ sizes
  const db = await connect();
  await db.query(`SET TimeZone = 'UTC'`);
  const tables =
    'calls transcript_turns call_reports outbox_events account_data_settings pending_object_deletions'.split(' ');
  results.sizes = await sizes(db, tables);
  const [facts] = (
    await db.query(
      `SELECT count(*) FILTER (WHERE account_id = $1)::int AS large_calls, avg(duration_sec)::float AS mean_duration_sec,
              (count(recording_key)::float / count(*)) AS recorded_share,
              avg(pg_column_size(search))::float AS search_bytes, avg(pg_column_size(summary))::float AS summary_bytes,
              avg(pg_column_size(c.*))::float AS row_bytes
         FROM calls c`,
      [LARGE],
    )
  ).rows;
  results.corpus = {
    large_account_calls: facts.large_calls,
    mean_duration_sec: round(facts.mean_duration_sec, 1),
    recorded_share: round(facts.recorded_share, 4),
    search_bytes_per_call: round(facts.search_bytes, 0),
    summary_bytes_per_call: round(facts.summary_bytes, 0),
    call_row_bytes: round(facts.row_bytes, 0),
  };
  out(`\nSizes at ${int(options.calls)} calls (${int(results.seed.turns)} turns), after VACUUM ANALYZE\n`);
  out(sizesTable(results.sizes, ['calls', 'transcript_turns'], options.calls));
  say(`corpus as seeded: ${JSON.stringify(results.corpus)}`);

  // ------------------------------------------------------------------------------------------ the large account
  const limit = PAGE_LIMIT + 1;
  const n = facts.large_calls;
  const step = Math.max(1, Math.floor(n / (options.runs + 20)));
  const cursors = (
    await db.query(
      `SELECT id FROM (SELECT id, row_number() OVER (ORDER BY started_at DESC, seq DESC) AS rn FROM calls WHERE account_id = $1) s
        WHERE rn % $2 = 0 ORDER BY md5(id) LIMIT $3`,
      [LARGE, step, options.runs + 20],
    )
  ).rows.map((row) => row.id);
  results.list = {};
  results.list.first_page = await timeRuns(options.runs, 20, () => db.query(FIRST_PAGE_SQL, [LARGE, limit]));
  results.list.deep_page = await timeRuns(options.runs, 20, async (i) => {
    const { rows } = await db.query(FIND_SQL, [cursors[i % cursors.length], LARGE]);
    const after = rows[0];
    const page = await db.query(AFTER_PAGE_SQL, [LARGE, after.started_at.toISOString(), after.seq, limit]);
    if (page.rows.length === 0 && i === 0) throw new Error('a deep page came back empty');
  });
  out(`\nThe large account (${int(n)} calls): ${options.runs} timed runs after 20 untimed, one at a time (ms)\n`);
  out(
    table(
      ['statement', 'p50', 'p90', 'p99', 'max'],
      [
        [
          'first page (51 rows)',
          ...['p50_ms', 'p90_ms', 'p99_ms', 'max_ms'].map((k) => fmt(results.list.first_page[k], 2)),
        ],
        [
          'deep page (starting_after looked up, then 51 rows after it; cursors spread over the history)',
          ...['p50_ms', 'p90_ms', 'p99_ms', 'max_ms'].map((k) => fmt(results.list.deep_page[k], 2)),
        ],
      ],
    ),
  );

  // Export (CallsService.exportChunk, jsonl with transcripts): each chunk reads 501 calls after the cursor and their
  // turns, and keeps calls until 500 or 512 KiB of lines (a line's size: the call and its turns as JSON); the next
  // chunk starts after the last call kept.
  {
    let after;
    let rows = 0;
    let turns = 0;
    let bytes = 0;
    let chunkCount = 0;
    let callsMs = 0;
    let turnsMs = 0;
    const chunkSamples = [];
    const started = performance.now();
    for (;;) {
      const c0 = performance.now();
      const page = after
        ? await db.query(AFTER_PAGE_SQL, [LARGE, after.started_at.toISOString(), after.seq, EXPORT_CHUNK_MAX_ROWS + 1])
        : await db.query(FIRST_PAGE_SQL, [LARGE, EXPORT_CHUNK_MAX_ROWS + 1]);
      const c1 = performance.now();
      const chunk = page.rows.slice(0, EXPORT_CHUNK_MAX_ROWS);
      const withTurns = chunk.filter((row) => row.has_transcript).map((row) => row.id);
      const t = withTurns.length ? await db.query(TRANSCRIPTS_SQL, [withTurns]) : { rows: [] };
      const c2 = performance.now();
      const kept = exportChunk(page.rows, t.rows, {
        maxRows: EXPORT_CHUNK_MAX_ROWS,
        maxBytes: EXPORT_CHUNK_MAX_BYTES,
      });
      callsMs += c1 - c0;
      turnsMs += c2 - c1;
      chunkSamples.push(performance.now() - c0);
      rows += kept.calls;
      turns += kept.turns;
      bytes += kept.bytes;
      chunkCount += 1;
      if (!kept.more) break;
      after = kept.last;
    }
    const elapsed = ms(started);
    const s = summarize(chunkSamples);
    results.export = {
      calls: rows,
      turns,
      bytes,
      chunks: chunkCount,
      calls_per_chunk: round(rows / chunkCount, 1),
      seconds: round(elapsed / 1000, 1),
      calls_per_s: round(rate(rows, elapsed), 0),
      mib_per_s: round(bytes / 2 ** 20 / (elapsed / 1000), 1),
      calls_statement_s: round(callsMs / 1000, 1),
      transcripts_statement_s: round(turnsMs / 1000, 1),
      chunk_p50_ms: s.p50_ms,
      chunk_p99_ms: s.p99_ms,
    };
    say(`export walk: ${JSON.stringify(results.export)}`);
    if (rows !== n) throw new Error(`the export walked ${rows} calls of ${n}`);
  }

  // ------------------------------------------------------------------------------------------ writes and the sweep
  const span = SPAN_DAYS;
  const oldestMonth = retentionDaysExpiring(span, 30);
  await db.query(
    `INSERT INTO account_data_settings (account_id, storage_mode, recordings_days, transcripts_days) VALUES ($1, 'everything', $2, $2)`,
    [LARGE, oldestMonth],
  );
  const fresh = newCalls(20_000);
  say(`inserting new calls on two connections: ${options['insert-seconds']} s alone, then while the sweep runs`);
  const inserts = insertWorkers(fresh);
  await new Promise((done) => setTimeout(done, options['insert-seconds'] * 1000));
  results.insert = { alone: inserts.mark() };
  say(`  alone: ${JSON.stringify(results.insert.alone)}`);
  const sweeper = await connect();
  say(`sweep of the large account's oldest month (retention ${oldestMonth} days), with the inserts`);
  results.sweep = { with_inserts: await sweep(sweeper, new Date()) };
  results.insert.during_sweep = inserts.mark();
  say(`  inserts during the sweep: ${JSON.stringify(results.insert.during_sweep)}`);
  await inserts.stop();
  await db.query(`UPDATE account_data_settings SET recordings_days = $2, transcripts_days = $2 WHERE account_id = $1`, [
    LARGE,
    retentionDaysExpiring(span, 60),
  ]);
  say(`sweep of the next month alone (retention ${retentionDaysExpiring(span, 60)} days)`);
  results.sweep.alone = await sweep(sweeper, new Date());

  // Dead rows and VACUUM after the deletions.
  await new Promise((done) => setTimeout(done, 1000)); // let the statistics arrive
  const afterSweep = await sizes(db, SWEPT_TABLES);
  results.vacuum = {};
  for (const name of ['calls', 'transcript_turns']) {
    const t0 = performance.now();
    await db.query(`VACUUM ${name}`);
    results.vacuum[name] = {
      dead_tuples_before: afterSweep.tables[name].dead_tuples,
      seconds: round(ms(t0) / 1000, 1),
    };
  }
  results.sizes_after_sweep = await sizes(db, SWEPT_TABLES);
  say(`VACUUM after the sweeps: ${JSON.stringify(results.vacuum)}`);
  const [inserted] = (
    await db.query(
      `SELECT (SELECT count(*) FROM call_reports)::int AS reports, (SELECT count(*) FROM outbox_events)::int AS events,
              (SELECT avg(pg_column_size(o.*)) FROM outbox_events o)::float AS event_row_bytes,
              (SELECT avg(octet_length(payload::text) + octet_length(headers::text)) FROM outbox_events)::float AS event_json_bytes,
              (SELECT avg(pg_column_size(r.*)) FROM call_reports r)::float AS report_row_bytes`,
    )
  ).rows;
  results.new_rows = {
    call_reports: inserted.reports,
    outbox_events: inserted.events,
    call_report_row_bytes: round(inserted.report_row_bytes, 0),
    outbox_row_bytes: round(inserted.event_row_bytes, 0),
    outbox_json_bytes: round(inserted.event_json_bytes, 0),
    call_reports_total_bytes_per_row: round(results.sizes_after_sweep.tables.call_reports.total / inserted.reports, 0),
    outbox_total_bytes_per_row: round(results.sizes_after_sweep.tables.outbox_events.total / inserted.events, 0),
    pending_object_deletions_total_bytes_per_row: round(
      results.sizes_after_sweep.tables.pending_object_deletions.total /
        Math.max(1, results.sweep.with_inserts.recordings.calls + results.sweep.alone.recordings.calls),
      0,
    ),
  };
  say(`rows the new calls wrote: ${JSON.stringify(results.new_rows)}`);

  // The sweep when many accounts have settings and nothing expires: each batch looks at every account's oldest call.
  results.sweep_idle = {};
  for (const [label, count] of [
    ['1,000 accounts with settings', Math.min(1000, options.accounts - 1)],
    ['every account with settings', options.accounts - 1],
  ]) {
    await db.query(`DELETE FROM account_data_settings`);
    await db.query(
      `INSERT INTO account_data_settings (account_id, storage_mode, recordings_days, transcripts_days)
       SELECT ${accountIdSql('a')}, 'everything', 3650, 3650 FROM generate_series(0, $1::int) AS a`,
      [count],
    );
    const now = new Date();
    results.sweep_idle[label] = {
      accounts: count + 1,
      recordings: await timeRuns(20, 2, () => sweepBatch(sweeper, EXPIRE_RECORDINGS_SQL, now)),
      transcripts: await timeRuns(20, 2, () => sweepBatch(sweeper, EXPIRE_TRANSCRIPTS_SQL, now)),
    };
    const r = results.sweep_idle[label];
    say(`  idle sweep, ${label}: recordings p50 ${r.recordings.p50_ms} ms, transcripts p50 ${r.transcripts.p50_ms} ms`);
  }
  await release(sweeper);

  // ------------------------------------------------------------------------------------------ one row per call
  await db.query(`CREATE TABLE bench_turns_per_call AS
      SELECT 'CA' || md5(conv::text) AS call_id,
             jsonb_agg(jsonb_build_object('role', role, 'text', text) ORDER BY position) AS turns
        FROM bench_turns GROUP BY conv`);
  await db.query('ALTER TABLE bench_turns_per_call ADD PRIMARY KEY (call_id)');
  await db.query('VACUUM ANALYZE bench_turns_per_call');
  const [alt] = (
    await db.query(
      `SELECT pg_total_relation_size('bench_turns_per_call')::bigint AS total, (SELECT count(*) FROM bench_turns_per_call)::int AS n`,
    )
  ).rows;
  const turnsPerCall = results.sizes.tables.transcript_turns.total / options.calls;
  results.turns_one_row_per_call = {
    conversations: alt.n,
    bytes_per_call: round(Number(alt.total) / alt.n, 0),
    turn_rows_bytes_per_call: round(turnsPerCall, 0),
    ratio: round(Number(alt.total) / alt.n / turnsPerCall, 3),
  };
  say(`turns as one jsonb row per call: ${JSON.stringify(results.turns_one_row_per_call)}`);
  await release(db);

  // ------------------------------------------------------------------------------------------ report
  out(`\nSeeding ${int(options.calls)} calls: ${JSON.stringify(results.seed)}`);
  out(`\nWrites: new calls (one statement each, 2 connections) and the retention sweep (batches of 500)\n`);
  out(
    table(
      ['what', 'calls', 'seconds', 'calls/s', 'p50 ms', 'p99 ms'],
      [
        [
          'inserts alone',
          ...['calls', 'seconds', 'calls_per_s', 'p50_ms', 'p99_ms'].map((k) => results.insert.alone[k]),
        ],
        [
          'inserts during the sweep',
          ...['calls', 'seconds', 'calls_per_s', 'p50_ms', 'p99_ms'].map((k) => results.insert.during_sweep[k]),
        ],
        ...Object.entries(results.sweep).flatMap(([when, r]) =>
          ['recordings', 'transcripts'].map((kind) => [
            `sweep ${kind} (${when.replace('_', ' ')}; per batch)`,
            r[kind].calls,
            r[kind].seconds,
            r[kind].calls_per_s,
            r[kind].batch_p50_ms,
            r[kind].batch_p99_ms,
          ]),
        ),
      ],
    ),
  );
  results.finished_at = new Date().toISOString();
  out(`\nresults: ${writeResults('capacity', results)}`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  if (options.keep) say(`kept ${DATABASE} (${URL_}); drop it with: psql -c 'DROP DATABASE "${DATABASE}" WITH (FORCE)'`);
  await cleanUp().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
