// API benchmark: authenticated GET /v1/numbers and GET /v1/calls through gateway -> NATS -> service -> PostgreSQL,
// against two floors running the apps' own SQL against the same databases:
// - the bare floor (ADR 0088; floors/api-floor.mjs and list-responder.mjs): the same hops built from the bare
//   libraries (Fastify, the NATS client, pg). It answers "what does the machine allow?".
// - the same-parts floor (issue 53; floors/same-parts-floor.mjs and same-parts-responder.mjs): the smallest Nest app
//   doing the same hops with the stock parts used plainly (Fastify adapter and ValidationPipe, a stock ClientProxy
//   over NATS, a Nest microservice handler, one Prisma query over the driver adapter). It answers "what do these
//   parts cost?", and so what the system adds on top of them.
//
// Each route's maximum rate is measured in rounds, the same-parts floor's, the bare floor's, then the system's, back
// to back (--pairs rounds, default 3); the median round's shares are reported. Then the p99 at half the system's own
// median maximum rate, the same-parts floor's then the system's, in as many rounds, and the median round's factor
// (ADR 0118). Also: each service's resident memory idle and under this load, and the latency of the path cut short at
// each hop, one request at a time.
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
  pairs: {
    type: 'number',
    default: 3,
    min: 1,
    help: 'rounds per route and rate (same-parts floor, bare floor, system)',
  },
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
  const floors = { bare: await startFloor(system), same_parts: await startSamePartsFloor(system) };
  const labels = () => ({
    ...systemLabels(system),
    [process.pid]: 'load generator',
    [floors.bare.serverPid]: 'floor server',
    [floors.bare.responderPid]: 'floor responder',
    [floors.same_parts.serverPid]: 'same-parts server',
    [floors.same_parts.responderPid]: 'same-parts responder',
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
  results.same_parts_verdict = {};
  const underLoad = system.sampleMemory(250);
  try {
    for (const [id, path] of routes) {
      const systemUrl = `${system.publicUrl}${path}`;
      const floorUrl = `${floors.bare.url}${path}`;
      const samePartsUrl = `${floors.same_parts.url}${path}`;
      await sameAnswer(path, systemUrl, floorUrl, auth, 'bare floor');
      await sameAnswer(path, systemUrl, samePartsUrl, auth, 'same-parts floor');
      const at = { headers: auth, connections, durationS: duration };
      const maxRounds = [];
      for (let round = 1; round <= options.pairs; round += 1) {
        const of = `round ${round} of ${options.pairs}`;
        const sameParts = await measure(`same-parts floor GET ${path}, max (${of})`, { ...at, url: samePartsUrl });
        const floor = await measure(`bare floor GET ${path}, max (${of})`, { ...at, url: floorUrl });
        const system = await measure(`GET ${path}, max (${of})`, { ...at, url: systemUrl });
        maxRounds.push({ same_parts: sameParts, floor, system });
      }
      const ofFloor = (name) => maxRounds.map((r) => ({ floor_rps: r[name].rps, system_rps: r.system.rps }));
      // Half the system's own median maximum: the rate the same-parts floor and the system are both measured at, in
      // rounds again (ADR 0118: one 10 s measurement's p99 is its 50 slowest requests).
      const rate = pairedVerdict(ofFloor('floor'), []).system_rps / 2;
      const halfRounds = [];
      for (let round = 1; round <= options.pairs; round += 1) {
        const of = `round ${round} of ${options.pairs}`;
        const sameParts = await measure(`same-parts floor GET ${path} at half the system's max (${of})`, {
          ...at,
          url: samePartsUrl,
          rate,
        });
        const system = await measure(`GET ${path} at half its max (${of})`, { ...at, url: systemUrl, rate });
        halfRounds.push({ same_parts: sameParts, system });
      }
      results.floor[id] = { max_rounds: maxRounds, half_rate: round(rate, 0), half_rounds: halfRounds };
      results.floor_verdict[id] = pairedVerdict(ofFloor('floor'), []);
      results.same_parts_verdict[id] = pairedVerdict(
        ofFloor('same_parts'),
        halfRounds.map((r) => ({ floor_p99_ms: r.same_parts.p99_ms, system_p99_ms: r.system.p99_ms })),
      );
    }
  } finally {
    results.memory_under_api_load = underLoad.stop();
    await Promise.all([floors.bare.stop(), floors.same_parts.stop()]);
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
async function sameAnswer(path, systemUrl, floorUrl, headers, floorName) {
  const read = async (url) => {
    const response = await fetch(url, { headers });
    return { status: response.status, body: await response.json() };
  };
  const [system, floor] = [await read(systemUrl), await read(floorUrl)];
  try {
    deepStrictEqual(floor, system);
  } catch (error) {
    throw new Error(`the ${floorName}'s GET ${path} does not answer what the system answers:\n${error.message}`);
  }
  const items = system.status === 200 && Array.isArray(system.body?.data) ? system.body.data.length : 0;
  if (items === 0)
    throw new Error(`GET ${path} compared on an empty or failed answer (${system.status}); the setup made no data`);
  say(`api: ${floorName} GET ${path} answers the same JSON as the system (${items} items)`);
}

/** The environment both floors read: the system's databases, NATS and subject prefix, and the apps' own statements. */
function floorEnv(system) {
  const { FIND_KEY_COUNTING_REQUEST } = require('@switchboard/gateway/auth-statements');
  const { NUMBERS_PAGE_SQL } = require('@switchboard/numbers-billing/list-statements');
  const { CALLS_PAGE_SQL } = require('@switchboard/calls-media/list-statements');
  return {
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
}

/**
 * A floor's two processes, its service side (`responderFile`, prints a line when listening) then its gateway side
 * (`serverFile`, prints its port), against the system's databases and NATS. With `profileDir`, each runs with
 * --cpu-prof into `<profileDir>/<name>-responder|<name>-server/`, and `stop()` ends them with SIGTERM and waits, so
 * that their profiles are written (bench/profile-api.mjs --against-floor).
 */
async function startFloorProcesses(system, { name, responderFile, serverFile, profileDir }) {
  const env = floorEnv(system);
  const start = (file, part) => {
    const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${name}-${part}`)}`] : [];
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
  const responder = start(responderFile, 'responder');
  await responder.first;
  const server = start(serverFile, 'server');
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

/** The bare floor (floors/list-responder.mjs, api-floor.mjs). */
export function startFloor(system, { profileDir } = {}) {
  return startFloorProcesses(system, {
    name: 'floor',
    responderFile: 'list-responder.mjs',
    serverFile: 'api-floor.mjs',
    profileDir,
  });
}

/** The same-parts floor (floors/same-parts-responder.mjs, same-parts-floor.mjs). */
export function startSamePartsFloor(system, { profileDir } = {}) {
  return startFloorProcesses(system, {
    name: 'same-parts',
    responderFile: 'same-parts-responder.mjs',
    serverFile: 'same-parts-floor.mjs',
    profileDir,
  });
}

function systemLabels(system) {
  return Object.fromEntries(SERVICES.map((app) => [system.pid(app), app]).filter(([pid]) => pid));
}

// ------------------------------------------------------------------------------------------------ report
export function apiReport(r, { memory = true } = {}) {
  const lines = [
    `API: ${r.connections} connections, ${r.duration_s} s per measurement, ${r.pairs} rounds per route and rate ` +
      '(same-parts floor, bare floor, system); the median round reported (each round in brackets)',
    '',
  ];
  const shares = (v) => `${pct(v.ratio)} (${v.pair_ratios.map((x) => pct(x)).join(', ')})`;
  lines.push(
    table(
      [
        'route',
        'system req/s',
        'same-parts req/s',
        'bare req/s',
        'share of same-parts',
        'share of bare',
        'half rate',
        'system p99 ms',
        'same-parts p99 ms',
        'p99 factor (each round)',
        'CPU ms per request, system at max',
        'DB transactions per request',
      ],
      Object.entries(r.same_parts_verdict).map(([id, same]) => {
        const bare = r.floor_verdict[id];
        const median = r.floor[id].max_rounds.find((round) => round.system.rps === same.system_rps)?.system;
        return [
          `GET /v1/${id}`,
          int(same.system_rps),
          int(same.floor_rps),
          int(bare.floor_rps),
          shares(same),
          shares(bare),
          int(r.floor[id].half_rate),
          same.system_p99_ms,
          same.floor_p99_ms,
          `${fmt(same.p99_factor_at_half_rate, 2)}x (${same.pair_p99_factors.map((x) => fmt(x, 2)).join(', ')})`,
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
