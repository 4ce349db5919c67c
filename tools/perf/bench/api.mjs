// API benchmark: authenticated GET /v1/numbers and GET /v1/calls through gateway -> NATS -> service -> PostgreSQL,
// against two floors running the apps' own SQL against the same databases:
// - the bare floor (ADR 0134; floors/api-floor.mjs and list-responder.mjs): the same hops built from the bare
//   libraries (Fastify, the NATS client, pg). It answers "what does the machine allow?".
// - the same-parts floor (issue 53; floors/same-parts-floor.mjs and same-parts-responder.mjs): the smallest Nest app
//   doing the same hops with the stock parts used plainly (Fastify adapter and ValidationPipe, a stock ClientProxy
//   over NATS, a Nest microservice handler, one Prisma query over the driver adapter). It answers "what do these
//   parts cost?", and so what the system adds on top of them.
//
// Each route's maximum rate is measured in rounds, the same-parts floor's, the bare floor's, then the system's, back
// to back (--pairs rounds, default 3); the median round's shares are reported. Then the p99 at half the system's own
// median maximum rate, the same-parts floor's then the system's, in as many rounds, and the median round's factor
// (ADR 0134). Also: each service's resident memory idle and under this load, and the latency of the path cut short at
// each hop, one request at a time.
//
// Run alone: node tools/perf/bench/api.mjs [--duration 10] [--pairs 3] [--connections 32] [--no-build]
// (tools/perf/bench/run.mjs runs it with the other benchmarks on one system.)
import { deepStrictEqual } from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiAccount } from '../lib/clients.mjs';
import { int, kit, machine, require, say, sleep, writeResults } from '../lib/common.mjs';
import { cpuLine, measured } from '../lib/cpu.mjs';
import { httpLoad, pacedHttp, serialHttp } from '../lib/load.mjs';
import { commandLine } from '../lib/options.mjs';
import { databaseUrl } from '../lib/postgres.mjs';
import { firstOutput, stopProcess } from '../lib/processes.mjs';
import { round } from '../lib/stats.mjs';
import { SERVICES, startSystem } from '../lib/system.mjs';
import { apiReport, halfRate, routeVerdicts } from './report.mjs';

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
  const { key, api } = await apiAccount(system, { name: 'API bench' });
  apiKey = key.key;
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
  const floors = { bare: await startFloor(system, 'bare'), same_parts: await startFloor(system, 'same-parts') };
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
      // Half the system's own median maximum: the rate the same-parts floor and the system are both measured at, in
      // rounds again (ADR 0134: one 10 s measurement's p99 is its 50 slowest requests).
      const rate = halfRate(maxRounds);
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
      const verdicts = routeVerdicts(maxRounds, halfRounds);
      results.floor_verdict[id] = verdicts.floor;
      results.same_parts_verdict[id] = verdicts.same_parts;
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
 * The API floors' processes: the bare floor (issue 19) and the same-parts floor (issue 53), each its service side
 * (prints a line when listening) and its gateway side (prints its port). `name` names their profile folders.
 */
const FLOORS = {
  bare: { name: 'floor', responder: 'list-responder.mjs', server: 'api-floor.mjs' },
  'same-parts': { name: 'same-parts', responder: 'same-parts-responder.mjs', server: 'same-parts-floor.mjs' },
};

/**
 * A floor (`bare` or `same-parts`): its service side, then its gateway side, against the system's databases and
 * NATS. With `profileDir`, each runs with --cpu-prof into `<profileDir>/<name>-responder|<name>-server/`, and
 * `stop()` ends them with SIGTERM and waits, so that their profiles are written (bench/profile-api.mjs
 * --against-floor).
 */
export async function startFloor(system, kind, { profileDir } = {}) {
  const { name, responder: responderFile, server: serverFile } = FLOORS[kind];
  const env = floorEnv(system);
  const start = (file, part) => {
    const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${name}-${part}`)}`] : [];
    const child = spawn(process.execPath, [...profile, join(kit, 'floors', file)], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return { child, first: firstOutput(child, file) };
  };
  const responder = start(responderFile, 'responder');
  await responder.first;
  const server = start(serverFile, 'server');
  const port = await server.first;
  return {
    url: `http://127.0.0.1:${port}`,
    serverPid: server.child.pid,
    responderPid: responder.child.pid,
    stop: () =>
      Promise.all(
        [server.child, responder.child].map((child) => stopProcess(child, profileDir ? 'SIGTERM' : 'SIGKILL')),
      ),
  };
}

function systemLabels(system) {
  return Object.fromEntries(SERVICES.map((app) => [system.pid(app), app]).filter(([pid]) => pid));
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
