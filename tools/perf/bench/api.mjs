// API benchmark: authenticated GET /v1/numbers and GET /v1/calls through gateway -> NATS -> service -> PostgreSQL,
// against the architecture's floor (issue 19, ADR 0088): the same hops built from the bare libraries
// (tools/perf/floors/api-floor.mjs and list-responder.mjs), running the apps' own SQL against the same databases.
//
// Each route's maximum rate is measured in pairs, the floor's then the system's, back to back (--pairs, default 3),
// and the median pair's ratio is the one reported; then the p99 at half the floor's maximum rate, in as many pairs,
// and the median pair's factor (ADR 0118). Also: each service's resident memory idle and under this load, and the
// latency of the path cut short at each hop, one request at a time.
//
// Run alone: node tools/perf/bench/api.mjs [--duration 10] [--pairs 3] [--connections 32] [--no-build]
// (tools/perf/bench/run.mjs runs it with the other benchmarks on one system.)
import { deepStrictEqual } from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Admin, Api, callerNumber, pool, provisionFleet } from '../lib/clients.mjs';
import { fmt, int, kit, machine, pct, require, say, sleep, table, writeResults } from '../lib/common.mjs';
import { cpuLine, measured, perRequestLine, transactionsLine } from '../lib/cpu.mjs';
import { apiGuards, guardsTable, memoryGuards } from '../lib/guards.mjs';
import { httpLoad, pacedHttp, serialHttp } from '../lib/load.mjs';
import { commandLine } from '../lib/options.mjs';
import { pairedVerdict, round } from '../lib/stats.mjs';
import { databaseUrl, SERVICES, startSystem } from '../lib/system.mjs';

export const API_OPTIONS = {
  duration: { type: 'number', default: 10, min: 1, help: 'seconds per measurement' },
  pairs: { type: 'number', default: 3, min: 1, help: 'floor-then-system pairs per route and rate' },
  connections: { type: 'number', default: 32, min: 1, help: 'keep-alive connections of the closed loop' },
  serial: { type: 'number', default: 400, min: 10, help: 'one-at-a-time requests per hop' },
};

/** The environment the system needs for this benchmark (merged into the system's env by the runner). */
export const API_ENV = {
  // A benchmark account must not meet the public 60/min limit: the per-key limit is configuration.
  RATE_LIMIT_REQUESTS: '1000000000',
  RATE_LIMIT_WINDOW_SECONDS: '3600',
};

export async function apiBenchmark(system, options) {
  const { duration, connections } = options;
  const results = {
    started_at: new Date().toISOString(),
    connections,
    duration_s: duration,
    pairs: options.pairs,
    serial_requests: options.serial,
  };
  let apiKey;
  // The benchmark account's key, for a later pass over the same data (diagnostics); never written to the results.
  Object.defineProperty(results, 'key', { enumerable: false, get: () => apiKey });

  // ---------------------------------------------------------------------------------------- data
  say('api: one account with a key, 3 numbers and 25 calls');
  const [{ key, numbers }] = await provisionFleet(system, { numbers: 3, name: 'API bench' });
  const admin = new Admin(system);
  await sleep(500); // number.provisioned reaches calls-media's directory
  await pool(
    Array.from({ length: 25 }, (_, i) => i),
    5,
    (i) =>
      admin.injectCall({
        to: numbers[i % 3].phone_number,
        caller: callerNumber(),
        duration_sec: 30 + i,
        outcome: 'order',
      }),
  );
  apiKey = key.key;
  const api = new Api(system, key.key);
  for (let i = 0; i < 50 && (await api.all('/calls')).length < 25; i += 1) await sleep(200);
  const auth = { authorization: `Bearer ${key.key}` };
  const routes = [
    ['numbers', '/v1/numbers'],
    ['calls', '/v1/calls'],
  ];
  const sample = await api.raw('GET', '/calls');
  results.payloads = {
    numbers_bytes: JSON.stringify((await api.raw('GET', '/numbers')).body).length,
    calls_bytes: JSON.stringify(sample.body).length,
    calls_listed: sample.body.data.length,
  };

  // ---------------------------------------------------------------------------------------- memory idle
  // Twice: right after the setup, and settled, after 30 s without a request: the idle guard is read on the settled
  // figure (docs/performance.md, "Method").
  say('api: resident memory idle (5 s right after the setup, 5 s after 30 s without requests)');
  await sleep(1000);
  const idle = system.sampleMemory(250);
  await sleep(5000);
  results.memory_idle = idle.stop();
  await sleep(25_000);
  const settled = system.sampleMemory(250);
  await sleep(5000);
  results.memory_idle_settled = settled.stop();

  // ---------------------------------------------------------------------------------------- against the floor
  // Each measurement warmed up (JIT, pools, caches) in its own mode: a closed loop before it starts, a fixed rate
  // inside its run over the connections it then measures on (tools/perf/lib/load.mjs, `warmupS`).
  const warmedUp = async (load) => {
    if (load.rate) return () => pacedHttp({ ...load, warmupS: 2 });
    await httpLoad({ ...load, durationS: 2 });
    return () => httpLoad(load);
  };
  const floor = await startFloor(system);
  const labels = () => ({
    ...systemLabels(system),
    [process.pid]: 'load generator',
    [floor.serverPid]: 'floor server',
    [floor.responderPid]: 'floor responder',
  });
  const measure = async (label, load) => {
    const result = await measured({
      run: await warmedUp(load),
      labels,
      system,
      onRetry: (foreign) =>
        say(`api: ${label}: disturbed (other processes used ${foreign}% of a core); measuring again`),
    });
    say(
      `api: ${label}: ${int(result.rps)} req/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms${result.non_2xx || result.errors ? `, non-2xx ${result.non_2xx}, errors ${result.errors}` : ''} (${cpuLine(result.cpu, 4)})`,
    );
    return result;
  };
  results.floor = {};
  results.floor_verdict = {};
  const underLoad = system.sampleMemory(250);
  try {
    for (const [id, path] of routes) {
      const systemUrl = `${system.publicUrl}${path}`;
      const floorUrl = `${floor.url}${path}`;
      await sameAnswer(path, systemUrl, floorUrl, auth);
      const at = { headers: auth, connections, durationS: duration };
      const maxPairs = [];
      for (let pair = 1; pair <= options.pairs; pair += 1) {
        const of = `pair ${pair} of ${options.pairs}`;
        const floorMax = await measure(`floor GET ${path}, max (${of})`, { ...at, url: floorUrl });
        const systemMax = await measure(`GET ${path}, max (${of})`, { ...at, url: systemUrl });
        maxPairs.push({ floor: floorMax, system: systemMax });
      }
      const summary = maxPairs.map((p) => ({ floor_rps: p.floor.rps, system_rps: p.system.rps }));
      // Half the median pair's floor maximum: the rate both are measured at, in pairs again (ADR 0118: one 10 s
      // measurement's p99 is its 50 slowest requests, so one slow spell of the machine decided a single factor).
      const rate = pairedVerdict(summary, []).floor_rps / 2;
      const halfPairs = [];
      for (let pair = 1; pair <= options.pairs; pair += 1) {
        const of = `pair ${pair} of ${options.pairs}`;
        const floorHalf = await measure(`floor GET ${path} at half its max (${of})`, { ...at, url: floorUrl, rate });
        const systemHalf = await measure(`GET ${path} at half the floor's max (${of})`, {
          ...at,
          url: systemUrl,
          rate,
        });
        halfPairs.push({ floor: floorHalf, system: systemHalf });
      }
      results.floor[id] = { max_pairs: maxPairs, half_rate: round(rate, 0), half_pairs: halfPairs };
      results.floor_verdict[id] = pairedVerdict(
        summary,
        halfPairs.map((p) => ({ floor_p99_ms: p.floor.p99_ms, system_p99_ms: p.system.p99_ms })),
      );
    }
  } finally {
    results.memory_under_api_load = underLoad.stop();
    await floor.stop();
  }

  // ---------------------------------------------------------------------------------------- hops
  // The path cut short at each hop, one request at a time (nothing queued): the gateway with no I/O (/healthz), with
  // only the key lookup (an unknown key, 401), and each whole route.
  say('api: hop by hop, one request at a time');
  const unknownKey = { authorization: `Bearer sk_live_${randomBytes(32).toString('base64url')}` };
  const hops = [
    ['healthz', 'gateway GET /healthz (Nest + Fastify, no auth, no I/O)', `${system.publicUrl}/healthz`, {}],
    [
      'unknown_key',
      'gateway GET /v1/numbers, unknown key (key lookup, 401)',
      `${system.publicUrl}/v1/numbers`,
      unknownKey,
    ],
    ...routes.map(([id, path]) => [id, `GET ${path} (whole path)`, `${system.publicUrl}${path}`, auth]),
  ];
  results.hops = {};
  for (const [id, label, url, headers] of hops)
    results.hops[id] = { label, ...(await serialHttp({ url, headers, count: options.serial })) };
  results.finished_at = new Date().toISOString();
  return results;
}

/**
 * The floor must answer what the system answers (issue 19): the same status and the same JSON, for the benchmark's
 * key, before either is measured. A floor that drifted from the system (a field added to the API, a changed page
 * size) would make the ratio compare different work; the run stops instead.
 */
async function sameAnswer(path, systemUrl, floorUrl, headers) {
  const read = async (url) => {
    const response = await fetch(url, { headers });
    return { status: response.status, body: await response.json() };
  };
  const [system, floor] = [await read(systemUrl), await read(floorUrl)];
  try {
    deepStrictEqual(floor, system);
  } catch (error) {
    throw new Error(`the floor's GET ${path} does not answer what the system answers:\n${error.message}`);
  }
  const items = system.status === 200 && Array.isArray(system.body?.data) ? system.body.data.length : 0;
  if (items === 0)
    throw new Error(`GET ${path} compared on an empty or failed answer (${system.status}); the setup made no data`);
  say(`api: floor GET ${path} answers the same JSON as the system (${items} items)`);
}

/**
 * The API floor's two processes (tools/perf/floors/list-responder.mjs, api-floor.mjs), with the apps' own statements, against
 * the system's databases and NATS.
 * With `profileDir`, each runs with --cpu-prof into `<profileDir>/floor-responder|floor-server/`, and `stop()` ends
 * them with SIGTERM and waits, so that their profiles are written (bench/profile-api.mjs --against-floor).
 */
export async function startFloor(system, { profileDir } = {}) {
  const { FIND_KEY_COUNTING_REQUEST } = require('@switchboard/gateway/auth-statements');
  const { NUMBERS_PAGE_SQL } = require('@switchboard/numbers-billing/list-statements');
  const { CALLS_PAGE_SQL } = require('@switchboard/calls-media/list-statements');
  const env = {
    ...process.env,
    NATS_URL: system.natsUrl,
    FLOOR_PREFIX: system.prefix,
    FLOOR_AUTH_DATABASE_URL: databaseUrl(system.databases.gateway),
    FLOOR_AUTH_SQL: FIND_KEY_COUNTING_REQUEST,
    FLOOR_WINDOW_SECONDS: API_ENV.RATE_LIMIT_WINDOW_SECONDS,
    FLOOR_RATE_LIMIT: API_ENV.RATE_LIMIT_REQUESTS,
    FLOOR_NUMBERS_DATABASE_URL: databaseUrl(system.databases['numbers-billing']),
    FLOOR_CALLS_DATABASE_URL: databaseUrl(system.databases['calls-media']),
    FLOOR_NUMBERS_SQL: NUMBERS_PAGE_SQL,
    FLOOR_CALLS_SQL: CALLS_PAGE_SQL,
  };
  const start = (file, name) => {
    const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`] : [];
    const child = spawn(process.execPath, [...profile, join(kit, 'floors', file)], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const first = new Promise((resolve, reject) => {
      child.stdout.once('data', (data) => resolve(String(data).trim()));
      child.once('exit', (code) => reject(new Error(`${file} exited (${code})`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    return { child, first, exited };
  };
  const responder = start('list-responder.mjs', 'floor-responder');
  await responder.first;
  const server = start('api-floor.mjs', 'floor-server');
  const port = await server.first;
  return {
    url: `http://127.0.0.1:${port}`,
    serverPid: server.child.pid,
    responderPid: responder.child.pid,
    stop: async () => {
      const signal = profileDir ? 'SIGTERM' : 'SIGKILL';
      server.child.kill(signal);
      responder.child.kill(signal);
      await Promise.all([server.exited, responder.exited]);
    },
  };
}

function systemLabels(system) {
  return Object.fromEntries(SERVICES.map((app) => [system.pid(app), app]).filter(([pid]) => pid));
}

// ------------------------------------------------------------------------------------------------ report
export function apiReport(r, { memory = true } = {}) {
  const lines = [
    `API: ${r.connections} connections, ${r.duration_s} s per measurement, ${r.pairs} floor-then-system pairs per route and rate; ` +
      'the median pair reported (each pair in brackets)',
    '',
  ];
  lines.push(
    table(
      [
        'route',
        'system req/s',
        'floor req/s',
        'share (each pair)',
        'half rate',
        'system p99 ms',
        'floor p99 ms',
        'p99 factor (each pair)',
        'CPU ms per request, system at max',
        'DB transactions per request',
      ],
      Object.entries(r.floor_verdict).map(([id, v]) => {
        const median = r.floor[id].max_pairs.find((p) => p.system.rps === v.system_rps)?.system;
        return [
          `GET /v1/${id}`,
          int(v.system_rps),
          int(v.floor_rps),
          `${pct(v.ratio)} (${v.pair_ratios.map((x) => pct(x)).join(', ')})`,
          int(r.floor[id].half_rate),
          v.system_p99_ms,
          v.floor_p99_ms,
          `${fmt(v.p99_factor_at_floor_half, 2)}x (${v.pair_p99_factors.map((x) => fmt(x, 2)).join(', ')})`,
          median ? perRequestLine(median, 4) : '',
          median ? transactionsLine(median) : '',
        ];
      }),
    ),
  );
  lines.push('', 'Hop by hop, one request at a time', '');
  lines.push(
    table(
      ['step', 'p50 ms', 'p99 ms'],
      Object.values(r.hops).map((hop) => [hop.label, fmt(hop.p50_ms, 2), fmt(hop.p99_ms, 2)]),
    ),
  );
  if (memory) lines.push('', memoryTable(r, { 'under API load (peak)': r.memory_under_api_load }));
  lines.push('', guardsTable([...apiGuards(r), ...memoryGuards(r.memory_idle_settled)]));
  return lines.join('\n');
}

/** Each service's resident memory: idle right after the setup and settled (means), then each load's peak. */
export function memoryTable(api, loads) {
  const rows = SERVICES.map((app) => [
    app,
    api.memory_idle[app]?.mean_mib,
    api.memory_idle_settled?.[app]?.mean_mib,
    ...Object.values(loads).map((m) => m[app]?.max_mib),
  ]);
  return table(
    ['resident memory (MiB)', 'idle after setup (mean)', 'idle, settled (mean)', ...Object.keys(loads)],
    rows,
  );
}

// ------------------------------------------------------------------------------------------------ alone
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = commandLine('node tools/perf/bench/api.mjs', {
    ...API_OPTIONS,
    'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
  });
  const system = await startSystem({ name: 'benchapi', env: API_ENV, build: !options['no-build'] });
  try {
    const results = await apiBenchmark(system, options);
    console.log(`\n${apiReport(results)}`);
    console.log(`\nresults: ${writeResults('api', { benchmark: 'api', machine: machine(), ...results })}`);
  } finally {
    await system.stop();
  }
}
