#!/usr/bin/env node
// `npm run bench`: the benchmarks on one machine in one run, each against its floor measured in the same run, printed
// as tables with the performance guards (ADR 0134) and written as JSON to tools/perf/results/ (git-ignored) so two
// runs compare side by side (docs/performance.md).
//
//   api          GET /v1/numbers and GET /v1/calls against the same-parts and bare API floors, in rounds;
//                memory idle and under load
//   events       call reports -> signed webhook deliveries against the events floors; 1,000 numbers
//   startup      `npm start` to ready on the built tree, with new databases and with them there
//   lostfound    lost-and-found search and matching at 100,000 and 1,000,000 items (bench/lostfound-search.mjs)
//   diagnostics  (only when named, after api) GET /v1/numbers through gateways differing in one setting, interleaved
//
// npm run bench -- [--only api,events,startup,lostfound,diagnostics] [--quick] [--no-build] [--wait-quiet SECONDS] ...
// (`--help` lists every option.) Needs PostgreSQL (TEST_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres), NATS with JetStream (NATS_URL, default nats://127.0.0.1:4222; a
// subject prefix of its own), nats-server on the PATH (startup) and openssl. All traffic goes to 127.0.0.1; every
// process, database and stream the run makes is removed at the end.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { kit, machine, resultsDir, root, say, tableLines, writeResults } from '../lib/common.mjs';
import { waitForQuiet } from '../lib/cpu.mjs';
import { benchGuards, guardsTable } from '../lib/guards.mjs';
import { commandLine } from '../lib/options.mjs';
import { round } from '../lib/stats.mjs';
import { buildApps, startSystem } from '../lib/system.mjs';
import { API_ENV, API_OPTIONS, apiBenchmark } from './api.mjs';
import { diagnostics, DIAGNOSTICS_OPTIONS } from './diagnostics.mjs';
import { EVENT_OPTIONS, eventsBenchmark, eventsSetup } from './events.mjs';
import { apiReport, diagnosticsReport, eventsReport, memoryTable, startupReport } from './report.mjs';
import { STARTUP_OPTIONS, startupBenchmark } from './startup.mjs';

const ALL = ['api', 'events', 'startup', 'lostfound', 'diagnostics'];
// Diagnostics take two more minutes and resolve only large differences on a small machine: asked for by name.
const DEFAULT = ['api', 'events', 'startup', 'lostfound'];
const options = commandLine('npm run bench --', {
  only: { type: 'list', default: DEFAULT, choices: ALL, help: 'the benchmarks to run' },
  quick: { type: 'boolean', default: false, help: 'shorter measurements, 300 numbers, lost-and-found at 100,000 only' },
  'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
  'wait-quiet': { type: 'number', default: 0, min: 0, help: 'seconds to wait for other processes to calm down' },
  ...API_OPTIONS,
  ...EVENT_OPTIONS,
  ...STARTUP_OPTIONS,
  ...DIAGNOSTICS_OPTIONS,
  'lostfound-sizes': { type: 'string', default: '100000,1000000', help: 'items at one location, each size in turn' },
  'lostfound-runs': { type: 'number', default: 30, min: 5, help: 'timed requests per query and size' },
});
if (options.quick) {
  Object.assign(options, {
    duration: 5,
    pairs: 1,
    'diagnostics-duration': 3,
    serial: 200,
    numbers: 300,
    calls: 900,
    'lostfound-sizes': '100000',
    'lostfound-runs': 20,
  });
}
const wants = (name) => options.only.includes(name);

const started = Date.now();
const results = {
  tool: 'bench',
  started_at: new Date().toISOString(),
  command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
  machine: machine(),
  options,
};
results.machine.load_at_start = await quietCheck(options['wait-quiet']);

const reports = [];
const failed = (name, error) => {
  console.error(`${name} failed:`, error);
  results.errors = { ...results.errors, [name]: String(error?.stack ?? error) };
  reports.push(`${name}: FAILED (${error?.message ?? error})`);
};
let system;
let setup;
try {
  if (!options['no-build']) await buildApps();
  if (wants('api') || wants('events') || wants('diagnostics')) {
    setup = eventsSetup();
    system = await startSystem({
      name: 'bench',
      env: { ...API_ENV, ...setup.env },
      serviceEnv: setup.serviceEnv,
      build: false,
    });
  }
  // Each benchmark on its own: one that fails is reported, and the others still run.
  const section = async (name, run) => {
    try {
      await run();
    } catch (error) {
      system?.printLogs();
      failed(name, error);
    }
  };
  if (wants('api')) {
    await section('api', async () => {
      results.api = await apiBenchmark(system, options);
      reports.push(apiReport(results.api, { memory: false }));
    });
  }
  if (wants('events')) {
    await section('events', async () => {
      results.events = await eventsBenchmark(system, setup.tls, options);
      reports.push(eventsReport(results.events));
    });
  }
  if (results.api) {
    const loads = {
      'under API load (peak)': results.api.memory_under_api_load,
      ...(results.events ? { 'under event load (peak)': results.events.memory_under_event_load } : {}),
    };
    reports.push(`Memory: resident set size of each service process\n\n${memoryTable(results.api, loads)}`);
  }
  if (wants('diagnostics') && results.api) {
    await section('diagnostics', async () => {
      results.diagnostics = await diagnostics(system, options, results.api);
      reports.push(diagnosticsReport(results.diagnostics));
    });
  } else if (wants('diagnostics')) say('diagnostics: needs the api benchmark in the same run; skipped');
} catch (error) {
  system?.printLogs();
  failed('system', error);
} finally {
  await system?.stop();
  setup?.cleanup();
}

// On its own, after the system above is gone: a start-up measured beside five running services would measure them.
if (wants('startup')) {
  try {
    results.startup = await startupBenchmark({ runs: options['startup-runs'] });
    reports.push(startupReport(results.startup));
  } catch (error) {
    failed('startup', error);
  }
}

if (wants('lostfound')) {
  results.lostfound = await lostfound(options);
  if (results.lostfound.exit_code !== 0) failed('lostfound', `exited ${results.lostfound.exit_code}`);
  if (results.lostfound.table)
    reports.push(`Lost-and-found search and matching (bench/lostfound-search.mjs)\n\n${results.lostfound.table}`);
}

results.guards = benchGuards(results);
results.finished_at = new Date().toISOString();
results.seconds = Math.round((Date.now() - started) / 1000);
console.log(`\n${'='.repeat(100)}\nSwitchboard benchmarks, ${results.started_at} (${results.seconds} s)`);
const m = results.machine;
console.log(
  `machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB, ${m.os}, Node ${m.node}, ${m.postgres}, nats-server ${m.nats_server}`,
);
console.log(
  `other processes' CPU at the start: ${m.load_at_start.other_percent}% of one core${m.load_at_start.other_percent > 30 ? ' (a busy machine: figures are low and noisy)' : ''}\n`,
);
console.log(reports.join('\n\n'));
if (results.guards.length > 0) console.log(`\nGuards\n\n${guardsTable(results.guards)}`);
console.log(`\nresults: ${writeResults('bench', results)}`);
// A missed guard is a finding for the person reading the tables, not a failure of the run: exit 1 only on errors.
process.exit(results.errors ? 1 : 0);

// ------------------------------------------------------------------------------------------------ helpers
/** CPU used by processes not ours over 3 s; with `waitS`, waits up to that long for it to fall under 30%. */
async function quietCheck(waitS) {
  const other = await waitForQuiet({
    labels: () => ({ [process.pid]: 'bench' }),
    waitS,
    sampleMs: 3000,
    pauseMs: 5000,
    shared: true,
    onWait: (percent) => say(`waiting for a quiet machine (other processes use ${percent}% of one core)`),
  });
  if (other > 30) say(`the machine is busy: other processes use ${other}% of one core; figures will be low and noisy`);
  return { other_percent: other, loadavg: loadavg().map((v) => round(v, 2)) };
}

/** The lost-and-found benchmark (bench/lostfound-search.mjs), in a process of its own: it builds and boots lostfound. */
async function lostfound(opts) {
  const script = join(kit, 'bench/lostfound-search.mjs');
  const args = ['--sizes', opts['lostfound-sizes'], '--runs', String(opts['lostfound-runs'])];
  say(`lostfound: node tools/perf/bench/lostfound-search.mjs ${args.join(' ')}`);
  const since = Date.now();
  const output = [];
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output.push(chunk);
    });
    child.once('exit', resolve);
  });
  const text = Buffer.concat(output).toString('utf8');
  const tableText = tableLines(text);
  const file = (existsSync(resultsDir) ? readdirSync(resultsDir) : [])
    .filter((name) => name.startsWith('lostfound-search-') && name.endsWith('.json'))
    .map((name) => join(resultsDir, name))
    .filter((path) => statSync(path).mtimeMs >= since)
    .sort()
    .at(-1);
  return {
    exit_code: code,
    args,
    table: tableText || undefined,
    results_file: file?.slice(root.length + 1),
    results: file ? JSON.parse(readFileSync(file, 'utf8')) : undefined,
  };
}
