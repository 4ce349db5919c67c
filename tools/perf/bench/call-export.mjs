#!/usr/bin/env node
// node tools/perf/bench/call-export.mjs [--calls 1000000] [--no-build]
//
// `GET /v1/calls/export` of one account's --calls calls, through the API as the system runs (the five services from
// their bundles, tools/perf/lib/system.mjs), once as CSV with the analysis and once as JSON lines: rows, bytes, time,
// and the resident memory of the gateway and calls-media sampled every 250 ms while the stream is read. The calls go
// straight into calls-media's database (one INSERT ... SELECT generate_series, a short summary each).
//
// Verdict (docs/call-data.md, "Export"): each process's resident memory stays flat while the export streams: its
// peak at most 64 MiB above what it used before the export, and what it uses at 90% of the stream at most 16 MiB
// above what it used at 10% (a leak per row would grow with the rows). The first export after the services start is
// shown but not judged: it is where V8's heap and the Prisma query compiler's Wasm memory grow to their working size
// (about 150 MiB in calls-media, measured), which they keep; the two exports after it are judged. Exits 1 when one
// misses. About 6 min.
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { EXPORT_MEMORY_BOUNDS, exportMemory, exportsTable } from '../lib/call-export-verdict.mjs';
import { Admin } from '../lib/clients.mjs';
import { int, machine, say, writeResults } from '../lib/common.mjs';
import { commandLine } from '../lib/options.mjs';
import { startSystem } from '../lib/system.mjs';

const options = commandLine('node tools/perf/bench/call-export.mjs', {
  calls: { type: 'number', default: 1_000_000, min: 1000, help: 'calls of the exporting account' },
  'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
});

const WATCHED = ['gateway', 'calls-media'];

/** Streams one export, counting bytes and lines, sampling RSS at each tenth of the rows. */
async function streamExport(system, key, query, expectedRows) {
  const url = new URL(`${system.publicUrl}/v1/calls/export?${query}`);
  const marks = {};
  const samples = Object.fromEntries(WATCHED.map((app) => [app, []]));
  const timer = setInterval(() => WATCHED.forEach((app) => samples[app].push(system.rssMiB(app))), 250);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    await new Promise((resolve, reject) => {
      const req = request(url, { headers: { authorization: `Bearer ${key}` } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        res.on('data', (chunk) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
          const tenth = Math.floor((lines / expectedRows) * 10);
          if (tenth >= 1 && marks[tenth] === undefined)
            marks[tenth] = Object.fromEntries(WATCHED.map((app) => [app, system.rssMiB(app)]));
        });
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    clearInterval(timer);
  }
  return { seconds: (performance.now() - started) / 1000, bytes, lines, marks, samples };
}

const results = { tool: 'call-export', started_at: new Date().toISOString(), machine: machine(), options, exports: [] };
const system = await startSystem({
  name: 'export',
  env: { RATE_LIMIT_REQUESTS: '1000000' },
  build: !options['no-build'],
});
let failed = false;
try {
  const admin = new Admin(system);
  const account = await admin.createAccount({ name: 'Export Co' });
  const key = (await admin.createKey(account.id)).key;
  say(`export: seeding ${int(options.calls)} calls`);
  const seeded = performance.now();
  await system.sql(
    'calls-media',
    `INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec,
                        started_at, has_transcript, summary, sentiment, successful, custom_analysis)
     SELECT 'CA' || md5(i::text), $1, 'num_' || (1 + i % 10), '+14155550100', '+1415' || lpad((i % 10000000)::text, 7, '0'),
            'inbound', 'completed', (ARRAY['order_placed','transferred','missed'])[1 + i % 3], i % 900,
            now() - make_interval(secs => i * 30), false,
            'The caller asked about order ' || i || ' and a pickup time for tonight.',
            (ARRAY['positive','neutral','negative','unknown'])[1 + i % 4], i % 2 = 0, '{"party_size": 2}'::jsonb
       FROM generate_series(1, $2::int) AS i`,
    [account.id, options.calls],
  );
  await system.sql('calls-media', 'VACUUM (ANALYZE) calls');
  results.seed_s = Number(((performance.now() - seeded) / 1000).toFixed(1));

  for (const [name, query, judged] of [
    ['csv, include=analysis (first after start)', 'format=csv&include=analysis', false],
    ['csv, include=analysis', 'format=csv&include=analysis', true],
    ['jsonl', 'format=jsonl', true],
  ]) {
    await new Promise((done) => setTimeout(done, 2000));
    const before = Object.fromEntries(WATCHED.map((app) => [app, system.rssMiB(app)]));
    say(`export: ${name}`);
    const run = await streamExport(system, key, query, options.calls);
    const marksOf = (app) => Object.fromEntries(Object.entries(run.marks).map(([tenth, rss]) => [tenth, rss[app]]));
    const verdicts = Object.fromEntries(
      WATCHED.map((app) => [app, exportMemory(before[app], run.samples[app], marksOf(app))]),
    );
    const rows = query.startsWith('format=csv') ? run.lines - 1 : run.lines;
    results.exports.push({
      name,
      rows,
      bytes: run.bytes,
      seconds: Number(run.seconds.toFixed(1)),
      rows_per_s: Math.round(rows / run.seconds),
      judged,
      memory: verdicts,
    });
    if (rows !== options.calls) {
      failed = true;
      say(`export: ${name} streamed ${rows} rows, not ${options.calls}`);
    }
  }
} catch (error) {
  console.error(error);
  system.printLogs();
  failed = true;
} finally {
  await system.stop();
}

console.log(exportsTable(results.exports, WATCHED));
const missed = results.exports.some((e) => e.judged && WATCHED.some((app) => !e.memory[app].held));
console.log(
  `\nbounds: peak <= ${EXPORT_MEMORY_BOUNDS.peakAboveBeforeMib} MiB above before; growth from 10% to 90% of the rows <= ${EXPORT_MEMORY_BOUNDS.growth10To90Mib} MiB`,
);
console.log(`results: ${writeResults('call-export', results)}`);
process.exit(failed || missed ? 1 : 0);
