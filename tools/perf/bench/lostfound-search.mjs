#!/usr/bin/env node
// node tools/perf/bench/lostfound-search.mjs [--sizes 10000,100000] [--million] [--runs 60] [--keep]
//
// How lost-and-found search and matching behave as a location fills up. Builds lostfound, boots it against a
// throwaway PostgreSQL database (sb_bench_lostfound_*, dropped at the end unless --keep) and its own NATS subject
// prefix, seeds found items straight into the database with multi-row INSERTs (unnest of arrays, 10,000 rows a
// statement; the generated search column and its GIN index are filled by PostgreSQL as in production), then
// times the service's own requests over NATS at each size: free-text `q` searches, filtered lists, deep pages,
// the item detail, filing a claim (matching against every stored item of the location) and logging an item
// (reverse matching against the open claims). Prints p50/p95 per size and how they grow, and writes the results
// as JSON under tools/perf/results/. Not part of `npm test`: it takes minutes and its numbers are the machine's.
//
// Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and NATS with
// JetStream (NATS_URL, default nats://127.0.0.1:4222).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { require, root, timeRuns, writeResults } from '../lib/common.mjs';
import { commandLine } from '../lib/options.mjs';
import { createDatabase, databaseUrl, dropDatabase } from '../lib/postgres.mjs';
import { mulberry32 } from '../lib/random.mjs';
import { round } from '../lib/stats.mjs';
import { lostfoundTable } from './report.mjs';

// ---------------------------------------------------------------------------------------------- options
const options = commandLine('node tools/perf/bench/lostfound-search.mjs', {
  sizes: { type: 'counts', default: [10_000, 100_000], help: 'items at one location, each size in turn' },
  million: { type: 'boolean', default: false, help: 'add 1,000,000 to the sizes' },
  runs: { type: 'number', default: 60, min: 5, help: 'timed requests per query and size' },
  keep: { type: 'boolean', default: false, help: 'keep the database' },
});
const sizes = [...options.sizes];
if (options.million && !sizes.includes(1_000_000)) sizes.push(1_000_000);
sizes.sort((a, b) => a - b);
const { runs, keep } = options;
const OPEN_CLAIMS = 1_000;

// ---------------------------------------------------------------------------------------------- build and load
console.log('building lostfound (tsc -b) ...');
const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-b', join(root, 'apps/lostfound/tsconfig.build.json')],
  {
    cwd: root,
    encoding: 'utf8',
  },
);
if (build.status !== 0) {
  console.error(`build failed:\n${build.stdout}${build.stderr}`);
  process.exit(1);
}
// The built app, through its package's exports (apps/lostfound/package.json), as tools require libs.
const { createLostfoundApp } = require('@switchboard/lostfound/bootstrap');
const { categorise } = require('@switchboard/lostfound/category-vocabulary');
const { RpcClient } = require('@switchboard/messaging');
const { createLogger } = require('@switchboard/observability');
const { ClaimsRpc, FoundItemsRpc, LocationsRpc } = require('@switchboard/contracts');
const { Client } = require('pg');
const { connect } = require('@nats-io/transport-node');
const { jetstreamManager } = require('@nats-io/jetstream');

// ---------------------------------------------------------------------------------------------- data
// Seeded (mulberry32), so two runs seed the same rows.
const KINDS = [
  ['umbrella', ['umbrella', 'folding umbrella', 'golf umbrella']],
  ['wallet', ['wallet', 'billfold', 'card holder']],
  ['phone', ['phone', 'smartphone', 'iPhone']],
  ['keys', ['keys', 'car key', 'key fob']],
  ['bag', ['backpack', 'tote bag', 'duffel bag', 'suitcase']],
  ['clothing', ['jacket', 'scarf', 'hoodie', 'beanie', 'gloves', 'raincoat']],
  ['eyewear', ['sunglasses', 'glasses', 'reading glasses']],
  ['bottle', ['water bottle', 'thermos', 'tumbler']],
  ['book', ['book', 'notebook', 'journal']],
  ['toy', ['teddy bear', 'toy car', 'doll']],
  ['charger', ['charger', 'power bank', 'usb cable']],
  ['jewelry', ['ring', 'necklace', 'bracelet']],
  ['electronics', ['headphones', 'earbuds', 'camera']],
  ['laptop', ['laptop', 'macbook', 'chromebook']],
  [null, ['thing', 'package', 'envelope']],
];
const COLORS = 'black white grey silver gold red pink orange yellow green blue navy purple brown beige'.split(' ');
const MATERIALS = 'leather canvas nylon wool plastic metal cotton denim suede rubber velvet bamboo'.split(' ');
const DETAILS = (
  'with a broken zipper, with a name tag, with stickers, with a keychain, scratched, with a torn strap, ' +
  'with initials inside, with a receipt inside, still wet, with a cat charm, with a dinosaur patch, ' +
  'in a paper bag, with a red ribbon, with a university logo, with a broken clasp, ' +
  'with a phone number written on it'
).split(', ');
const BRANDS = 'Acme Northwind Contoso Fabrikam Tailspin Wingtip Litware Proseware Adatum Lucerne'.split(' ');
const AREAS = Array.from({ length: 40 }, (_, n) =>
  n < 20 ? `Gate ${String.fromCharCode(65 + (n % 5))}${n + 1}` : `Platform ${n - 19}`,
).concat(['Food court', 'Lobby', 'Parking P2', 'Restroom east']);
const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const day = (offset) => new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

function item(rand) {
  const [category, nouns] = pick(rand, KINDS);
  const color = pick(rand, COLORS);
  const description = `${color[0].toUpperCase()}${color.slice(1)} ${pick(rand, MATERIALS)} ${pick(rand, nouns)} ${pick(rand, DETAILS)}${rand() < 0.2 ? `, ${pick(rand, BRANDS)}` : ''}`;
  const sorted = categorise(category ?? undefined, description);
  const area = pick(rand, AREAS);
  return {
    category: sorted.category,
    category_class: sorted.categoryClass,
    value_class: sorted.valueClass,
    description,
    color: rand() < 0.8 ? color : '',
    found_area: area,
    area_key: area.toLowerCase(),
    found_date: day(Math.floor(rand() * 365)),
    status: rand() < 0.9 ? 'stored' : 'returned',
  };
}

// ---------------------------------------------------------------------------------------------- database
const natsUrl = (process.env.NATS_URL?.trim() || 'nats://127.0.0.1:4222').split(',')[0];
const database = `sb_bench_lostfound_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const prefix = `bench${randomBytes(4).toString('hex')}`;

async function seed(pg, locationId, from, to) {
  const BATCH = 10_000;
  const rand = mulberry32(from + 1);
  for (let start = from; start < to; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, to - start) }, () => item(rand));
    const column = (name) => rows.map((row) => row[name]);
    await pg.query(
      `INSERT INTO found_items (location_id, category, category_class, value_class, description, color, found_area, area_key, found_date, status, source)
       SELECT $1, category, category_class, value_class, description, color, found_area, area_key, found_date::date, status, 'api'
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
           AS t(category, category_class, value_class, description, color, found_area, area_key, found_date, status)`,
      [
        locationId,
        ...'category category_class value_class description color found_area area_key found_date status'
          .split(' ')
          .map(column),
      ],
    );
    if (process.stdout.isTTY) process.stdout.write(`\r  seeded ${(start + rows.length).toLocaleString('en-US')} items`);
  }
  process.stdout.write(process.stdout.isTTY ? '\n' : `  seeded ${to.toLocaleString('en-US')} items\n`);
  // What autovacuum does soon after a bulk load in production: statistics, and the visibility map that lets
  // counts use index-only scans.
  await pg.query('VACUUM ANALYZE found_items');
  // The seed's dirty pages are written now, not by the checkpointer while requests are timed.
  await pg.query('CHECKPOINT');
}

// ---------------------------------------------------------------------------------------------- timing
/** `count` timed requests after one untimed (plans, caches). */
async function time(label, count, run) {
  const { p50_ms, p95_ms, max_ms, mean_ms } = await timeRuns(count, 1, run);
  return { label, runs: count, p50_ms, p95_ms, max_ms, mean_ms };
}

// ---------------------------------------------------------------------------------------------- run
let app;
let nc;
let pg;
let created = false;
const results = {
  benchmark: 'lostfound-search',
  started_at: new Date().toISOString(),
  machine: {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 2 ** 30),
  },
  runs_per_query: runs,
  open_claims: OPEN_CLAIMS,
  sizes: [],
};

async function cleanup() {
  await app?.close().catch(() => undefined);
  await pg?.end().catch(() => undefined);
  if (nc) {
    try {
      const jsm = await jetstreamManager(nc);
      for await (const stream of jsm.streams.list())
        if (stream.config.name.startsWith(`${prefix.toUpperCase()}_`)) await jsm.streams.delete(stream.config.name);
    } catch {
      // best effort
    }
    await nc.close().catch(() => undefined);
  }
  if (created && !keep)
    await dropDatabase(database).catch((error) => console.error(`could not drop ${database}: ${error.message}`));
  else if (created) console.log(`kept database ${database}`);
}
process.once('SIGINT', () => {
  console.log('\ninterrupted; cleaning up');
  void cleanup().finally(() => process.exit(130));
});

try {
  await createDatabase(database);
  created = true;
  console.log(`database ${database}, NATS prefix ${prefix}`);
  app = await createLostfoundApp(
    {
      ...process.env,
      LOSTFOUND_DATABASE_URL: databaseUrl(database),
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: prefix,
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
    },
    createLogger('lostfound', 'silent'),
  );
  nc = await connect({ servers: natsUrl });
  const rpc = new RpcClient(nc, { natsUrl, prefix, requestTimeoutMs: 60_000 });
  pg = new Client({ connectionString: databaseUrl(database) });
  await pg.connect();

  const accountId = `acct_${'b'.repeat(20)}`;
  const { id: locationId } = await rpc.request(LocationsRpc.create, { account_id: accountId, name: 'Bench Central' });
  const as = { accountId };
  // Open claims for reverse matching: every new item is scored against them.
  const claimRand = mulberry32(7);
  for (let n = 0; n < OPEN_CLAIMS; n += 1) {
    const row = item(claimRand);
    await pg.query(
      `INSERT INTO claims (location_id, claimant_name, claimant_phone, category, category_class, value_class, description, color, lost_area, area_key, lost_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::date)`,
      [
        locationId,
        `Claimant ${n}`,
        `+1415867${String(n).padStart(4, '0')}`,
        row.category,
        row.category_class,
        row.value_class === 'urgent' ? 'high' : row.value_class,
        row.description,
        row.color,
        row.found_area,
        row.area_key,
        row.found_date,
      ],
    );
  }

  const qRand = mulberry32(99);
  const queries = [
    ['list, newest first (no filter)', () => ({ location_id: locationId })],
    ['q: one common word ("black")', () => ({ location_id: locationId, q: 'black' })],
    ['q: two words, prefix ("red umbr")', () => ({ location_id: locationId, q: 'red umbr' })],
    ['q: rare word (a brand)', () => ({ location_id: locationId, q: pick(qRand, BRANDS) })],
    ['q: three words ("blue leather wallet")', () => ({ location_id: locationId, q: 'blue leather wallet' })],
    [
      'q + category + area + dates',
      () => ({
        location_id: locationId,
        q: pick(qRand, COLORS),
        category: 'umbrella',
        area: pick(qRand, AREAS),
        from: '2025-03-01',
        to: '2025-09-30',
      }),
    ],
    [
      'filters only: category + status + dates',
      () => ({ location_id: locationId, category: 'bag', status: 'stored', from: '2025-06-01', to: '2025-06-30' }),
    ],
    ['q, page 40 ("green")', () => ({ location_id: locationId, q: 'green', page: 40 })],
  ];

  let seeded = 0;
  for (const size of sizes) {
    console.log(`\n== ${size.toLocaleString('en-US')} found items at one location`);
    const started = performance.now();
    await seed(pg, locationId, seeded, size);
    const seedSeconds = (performance.now() - started) / 1000;
    seeded = size;
    // Each size starts the account's day afresh: logging items texts matched claimants, and a second size would
    // otherwise run into the account's daily text limit (ADR 0053) and fail.
    await pg.query('DELETE FROM daily_text_counts');
    const timings = [];
    for (const [label, query] of queries)
      timings.push(await time(label, runs, () => rpc.request(FoundItemsRpc.list, query(), as)));
    const [{ max_id: maxId }] = (await pg.query('SELECT max(id)::int AS max_id FROM found_items')).rows;
    timings.push(
      await time('item detail (photos, timeline)', runs, () =>
        rpc.request(FoundItemsRpc.get, { location_id: locationId, id: 1 + Math.floor(qRand() * maxId) }, as),
      ),
    );
    const claimRuns = Math.min(runs, 40);
    timings.push(
      await time('file a claim (matching vs all stored items)', claimRuns, () => {
        const row = item(qRand);
        return rpc.request(
          ClaimsRpc.file,
          {
            location_id: locationId,
            claimant_name: 'Bench',
            claimant_phone: '+14158675309',
            category: row.category,
            description: row.description,
            color: row.color,
            lost_area: row.found_area,
            lost_date: row.found_date,
          },
          as,
        );
      }),
    );
    timings.push(
      await time(
        `log an item (reverse matching vs ${OPEN_CLAIMS.toLocaleString('en-US')}+ open claims)`,
        claimRuns,
        () => {
          const row = item(qRand);
          return rpc.request(
            FoundItemsRpc.log,
            {
              location_id: locationId,
              category: row.category,
              description: row.description,
              color: row.color,
              found_area: row.found_area,
              found_date: row.found_date,
            },
            as,
          );
        },
      ),
    );
    const plan = (
      await pg.query(
        `EXPLAIN SELECT id FROM found_items WHERE location_id = $1 AND search @@ to_tsquery('english', 'red:* & umbr:*')
          ORDER BY ts_rank(search, to_tsquery('english', 'red:* & umbr:*')) DESC, id DESC LIMIT 25`,
        [locationId],
      )
    ).rows.map((row) => row['QUERY PLAN']);
    const usesIndex = plan.some((line) => line.includes('found_items_search_idx'));
    const [{ bytes, table, candidates }] = (
      await pg.query(
        `SELECT pg_relation_size('found_items_search_idx')::bigint AS bytes,
           pg_relation_size('found_items')::bigint AS table,
           (SELECT sum(pg_relation_size(indexrelid))::bigint FROM pg_index
             WHERE indexrelid::regclass::text LIKE 'found_items_claim_candidates%') AS candidates`,
      )
    ).rows;
    results.sizes.push({
      items: size,
      seed_seconds: round(seedSeconds),
      search_index_mb: round(Number(bytes) / 2 ** 20),
      // The table, and the indexes claim matching reads its candidates from (docs/adr/0053).
      table_mb: round(Number(table) / 2 ** 20),
      claim_candidates_indexes_mb: round(Number(candidates) / 2 ** 20),
      q_uses_gin_index: usesIndex,
      timings,
    });
    console.log(
      `  seeded in ${seedSeconds.toFixed(1)} s; table ${round(Number(table) / 2 ** 20)} MB; GIN index ${round(Number(bytes) / 2 ** 20)} MB; claim candidates' indexes ${round(Number(candidates) / 2 ** 20)} MB; q plan uses the GIN index: ${usesIndex ? 'yes' : 'NO'}`,
    );
  }

  // ------------------------------------------------------------------------------------------ report
  console.log(
    `\nlost-and-found over NATS, ${runs} runs per query (claims/items: ${Math.min(runs, 40)}), one location holding every item\n`,
  );
  console.log(lostfoundTable(results.sizes));
  if (results.sizes.length > 1) {
    const growth = results.sizes.at(-1).items / results.sizes[0].items;
    console.log(`\nData grew ${growth}x; the last column is how much the median grew.`);
  }

  results.finished_at = new Date().toISOString();
  console.log(`\nresults: ${writeResults('lostfound-search', results)}`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
