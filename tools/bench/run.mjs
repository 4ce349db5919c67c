#!/usr/bin/env node
// `npm run bench`: every benchmark on one machine in one run, each against its ceiling measured in the same run,
// printed as tables and written as JSON to tools/bench/results/ (git-ignored) so two runs compare side by side.
//
//   api          GET /v1/numbers and GET /v1/calls vs a bare Fastify server; hop costs; memory idle and under load
//   events       call reports -> signed webhook deliveries vs a direct sign-and-post loop; 1,000 numbers
//   diagnostics  (only when named) GET /v1/numbers through gateways differing in one setting, interleaved
//   lostfound    tools/bench/lostfound-search.mjs (search and matching at 100,000 and 1,000,000 items), if present
//
// node tools/bench/run.mjs [--only api,events,lostfound,diagnostics] [--quick] [--no-build] [--wait-quiet SECONDS]
//   [--duration 10] [--connections 32] [--numbers 1000] [--calls 3000] [--lostfound-sizes 100000,1000000]
// Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), NATS with JetStream
// (NATS_URL, default nats://127.0.0.1:4222; a subject prefix of its own), openssl, and autocannon (devDependency).
// All traffic goes to 127.0.0.1; every process, database and stream the run makes is removed at the end.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { API_ENV, API_OPTIONS, apiBenchmark, apiReport, memoryTable } from './api.mjs';
import { EVENT_OPTIONS, eventsBenchmark, eventsReport, eventsSetup } from './events.mjs';
import {
  fmt,
  int,
  machine,
  parseOptions,
  requireTool,
  root,
  round,
  say,
  sleep,
  table,
  writeResults,
} from './lib/common.mjs';
import { cpuMeter, measured } from './lib/cpu.mjs';
import { httpLoad } from './lib/load.mjs';
import { buildApps, SERVICES, startSystem } from './lib/system.mjs';

const ALL = ['api', 'events', 'diagnostics', 'lostfound'];
// Diagnostics take two more minutes and resolve only large differences on a small machine: asked for by name.
const DEFAULT = ['api', 'events', 'lostfound'];
const options = parseOptions(process.argv.slice(2), {
  ...API_OPTIONS,
  ...EVENT_OPTIONS,
  only: { type: 'list', default: DEFAULT },
  quick: { type: 'boolean', default: false },
  'no-build': { type: 'boolean', default: false },
  'wait-quiet': { type: 'number', default: 0 },
  'lostfound-sizes': { type: 'string', default: '100000,1000000' },
  'lostfound-runs': { type: 'number', default: 30 },
});
for (const name of options.only)
  if (!ALL.includes(name)) throw new Error(`unknown benchmark ${name} (known: ${ALL.join(', ')})`);
if (options.quick) {
  Object.assign(options, {
    duration: 5,
    'ladder-duration': 3,
    serial: 200,
    numbers: 300,
    calls: 900,
    'lostfound-sizes': '100000',
    'lostfound-runs': 20,
  });
}
const wants = (name) => options.only.includes(name);
if (wants('api') || wants('diagnostics')) {
  try {
    requireTool('autocannon', 'the HTTP load generator of tools/bench');
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
}

const started = Date.now();
const results = {
  tool: 'bench',
  started_at: new Date().toISOString(),
  command: `node tools/bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
  machine: machine(),
  options,
};
results.machine.load_at_start = await quietCheck(options['wait-quiet']);

const reports = [];
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
      console.error(`${name} failed:`, error);
      system.printLogs();
      results.errors = { ...results.errors, [name]: String(error?.stack ?? error) };
      reports.push(`${name}: FAILED (${error?.message ?? error})`);
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
  console.error(error);
  system?.printLogs();
  results.error = String(error?.stack ?? error);
} finally {
  await system?.stop();
  setup?.cleanup();
}

if (wants('lostfound')) {
  results.lostfound = await lostfound(options);
  if (results.lostfound.table)
    reports.push(`Lost-and-found search and matching (tools/bench/lostfound-search.mjs)\n\n${results.lostfound.table}`);
}

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
console.log(`\nresults: ${writeResults('bench', 'bench', results)}`);
process.exit(results.error || results.errors ? 1 : 0);

// ------------------------------------------------------------------------------------------------ helpers
/** CPU used by processes not ours over 3 s; with `waitS`, waits up to that long for it to fall under 30%. */
async function quietCheck(waitS) {
  const deadline = Date.now() + waitS * 1000;
  for (;;) {
    const meter = cpuMeter(() => ({ [process.pid]: 'bench' }));
    await sleep(3000);
    const { percent_of_one_core: p } = meter.stop();
    const other = (p.other ?? 0) + (p.postgres ?? 0) + (p['nats-server'] ?? 0);
    if (other <= 30 || Date.now() >= deadline) {
      if (other > 30)
        say(`the machine is busy: other processes use ${other}% of one core; figures will be low and noisy`);
      return { other_percent: other, loadavg: (await import('node:os')).loadavg().map((v) => round(v, 2)) };
    }
    say(`waiting for a quiet machine (other processes use ${other}% of one core)`);
    await sleep(5000);
  }
}

/**
 * Where the API's time goes, one change at a time, on the same data (the API benchmark's account). This machine's
 * speed drifts by +-25% over minutes, so variants are not measured one after the other but interleaved: every
 * variant once per round, the order rotated, `rounds` rounds, and the medians compared.
 * - an extra gateway process on ports of its own, beside the benchmark's, differing only in its environment:
 *   OpenTelemetry off altogether (OTEL_SDK_DISABLED=true: no spans, no instrumentation), and exporting spans over
 *   OTLP to a local sink (every trace, and 10% of them): what tracing costs when a deployment sends it somewhere. The
 *   gateway is the process with the most CPU per request. (It serves its requests without the HTTP instrumentation,
 *   ADR 0117, so there is no variant without it.)
 * - the same load spread over one API key per connection instead of one key (one rate-limit row per key).
 */
async function diagnostics(system, opts, api, rounds = 4) {
  const { freePort } = await import('./lib/system.mjs');
  const { Admin } = await import('./lib/clients.mjs');
  const auth = { authorization: `Bearer ${api.key}` };
  // Where a gateway that exports spans sends them: a sink that reads each OTLP post and answers 200.
  const { createServer } = await import('node:http');
  const sink = createServer((request, response) => request.resume().on('end', () => response.end()));
  await new Promise((listening) => sink.listen(0, '127.0.0.1', listening));
  const otlp = `http://127.0.0.1:${sink.address().port}`;
  const variants = [
    {
      id: 'as-configured',
      name: 'gateway as configured (no OTLP endpoint)',
      key: 'gateway',
      port: system.ports.gateway,
    },
    {
      id: 'otel-off',
      name: 'gateway with OpenTelemetry off (OTEL_SDK_DISABLED=true)',
      key: 'gateway#otel-off',
      env: { OTEL_SDK_DISABLED: 'true' },
    },
    {
      id: 'exporting',
      name: 'gateway exporting every span over OTLP',
      key: 'gateway#exporting',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp },
    },
    {
      id: 'exporting-10',
      name: 'gateway exporting 10% of traces over OTLP',
      key: 'gateway#exporting-10',
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      },
    },
  ];
  for (const v of variants.filter((x) => x.env)) {
    v.port = await freePort();
    system.start('gateway', { ...v.env, PORT: String(v.port), ADMIN_PORT: String(await freePort()) }, v.key);
  }
  for (const v of variants.filter((x) => x.env)) {
    for (let i = 0; i < 150; i += 1) {
      if (!system.alive(v.key)) throw new Error(`${v.key} exited at start`);
      const ready = await fetch(`http://127.0.0.1:${v.port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) break;
      await sleep(200);
    }
    await sleep(3000);
    v.fresh_rss_mib = Math.round(system.rssMiB(v.key));
  }
  // One key per connection, from accounts of their own.
  const admin = new Admin(system);
  const keys = [];
  while (keys.length < opts.connections) {
    const account = await admin.createAccount({ name: 'Diagnostics keys' });
    for (let i = 0; i < 5 && keys.length < opts.connections; i += 1) keys.push((await admin.createKey(account.id)).key);
  }
  let nextKey = 0;
  const spread = {
    id: 'many-keys',
    name: `gateway as configured, ${opts.connections} API keys (one per connection)`,
    key: 'gateway',
    port: system.ports.gateway,
    keys: () => keys[nextKey++ % keys.length],
  };
  const all = [...variants, spread];
  const labels = () => ({
    ...Object.fromEntries(SERVICES.map((app) => [system.pid(app), app])),
    ...Object.fromEntries(variants.filter((v) => v.env).map((v) => [system.pid(v.key), v.key])),
    [process.pid]: 'load generator',
  });
  for (const v of all) v.samples = [];
  // The extra gateways are fresh processes: warm them (JIT, pools) as long as the others were warmed before.
  for (const v of variants.filter((x) => x.env))
    await httpLoad({
      url: `http://127.0.0.1:${v.port}/v1/numbers`,
      headers: auth,
      connections: opts.connections,
      durationS: 5,
    });
  say(`diagnostics: ${all.length} variants x ${rounds} rounds of ${opts['ladder-duration']} s, interleaved`);
  for (let round = 0; round < rounds; round += 1) {
    const order = all.map((_, i) => all[(i + round) % all.length]);
    for (const v of order) {
      const url = `http://127.0.0.1:${v.port}/v1/numbers`;
      const load = {
        url,
        headers: auth,
        connections: opts.connections,
        durationS: opts['ladder-duration'],
        keys: v.keys,
      };
      await httpLoad({ ...load, durationS: 1 });
      const m = await measured({ run: () => httpLoad(load), labels, system, attempts: 1 });
      v.samples.push({
        rps: m.rps,
        p99_ms: m.p99_ms,
        gateway_cpu_ms: m.cpu_ms_per_request[v.key],
        cpu_ms_per_request: m.cpu_ms_per_request,
        foreign_cpu_percent: m.foreign_cpu_percent,
      });
    }
    say(`diagnostics: round ${round + 1}: ${all.map((v) => `${v.id} ${int(v.samples.at(-1).rps)}`).join(', ')} req/s`);
  }
  for (const v of variants.filter((x) => x.env)) await system.kill(v.key, 'SIGTERM');
  sink.close();
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  // Each variant against the reference of the same round: the machine's drift between rounds cancels out.
  const ratios = (v, field) => v.samples.map((x, round) => x[field] / all[0].samples[round][field]);
  return {
    rounds,
    duration_s: opts['ladder-duration'],
    path: 'GET /v1/numbers',
    fresh_rss_mib_as_configured: api.memory_idle.gateway?.mean_mib,
    variants: all.map((v) => ({
      id: v.id,
      name: v.name,
      env: v.env,
      fresh_rss_mib: v.fresh_rss_mib,
      samples: v.samples,
      median_rps: median(v.samples.map((x) => x.rps)),
      median_gateway_cpu_ms: median(v.samples.map((x) => x.gateway_cpu_ms)),
      rps_vs_reference_per_round: ratios(v, 'rps').map((x) => round(x, 3)),
      gateway_cpu_vs_reference_per_round: ratios(v, 'gateway_cpu_ms').map((x) => round(x, 3)),
      median_rps_ratio: round(median(ratios(v, 'rps')), 3),
      median_gateway_cpu_ratio: round(median(ratios(v, 'gateway_cpu_ms')), 3),
    })),
  };
}

function diagnosticsReport(d) {
  const [base] = d.variants;
  const change = (ratio) => `${ratio >= 1 ? '+' : ''}${fmt((ratio - 1) * 100, 0)}%`;
  const range = (list) => `${int(Math.min(...list))}-${int(Math.max(...list))}`;
  const perRound = (list) => list.map((x) => change(x)).join(' ');
  const rows = d.variants.map((v) => [
    v.name,
    int(v.median_rps),
    range(v.samples.map((x) => x.rps)),
    v === base ? '' : `${change(v.median_rps_ratio)} (${perRound(v.rps_vs_reference_per_round)})`,
    fmt(v.median_gateway_cpu_ms, 2),
    v === base ? '' : `${change(v.median_gateway_cpu_ratio)} (${perRound(v.gateway_cpu_vs_reference_per_round)})`,
    v.fresh_rss_mib ?? (v === base ? d.fresh_rss_mib_as_configured : ''),
  ]);
  return `Diagnostics: ${d.path}, each variant ${d.rounds} times ${d.duration_s} s, interleaved; change = median over rounds of (variant / reference of the same round)\n\n${table(
    [
      'variant',
      'req/s (median)',
      'req/s (range)',
      'req/s change (each round)',
      'gateway CPU ms per request (median)',
      'CPU change (each round)',
      'gateway RSS MiB, fresh',
    ],
    rows,
  )}`;
}

/** The lost-and-found benchmark, another engineer's script, run as it is when it exists. */
async function lostfound(opts) {
  const script = join(root, 'tools/bench/lostfound-search.mjs');
  if (!existsSync(script)) {
    say('lostfound: tools/bench/lostfound-search.mjs is not there; skipped');
    return { skipped: true };
  }
  const args = ['--sizes', opts['lostfound-sizes'], '--runs', String(opts['lostfound-runs'])];
  say(`lostfound: node tools/bench/lostfound-search.mjs ${args.join(' ')}`);
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
  const tableText = text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .join('\n');
  const dir = join(root, 'tools/bench/results');
  const file = readdirSync(dir)
    .filter((name) => name.startsWith('lostfound-search-') && name.endsWith('.json'))
    .map((name) => join(dir, name))
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
