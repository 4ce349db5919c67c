// Where the API path spends its CPU: starts the system with --cpu-prof, loads GET /v1/<path> for a while, stops
// the services (which writes their profiles) and prints the hottest functions and packages of each service during
// the measured load (start-up, provisioning and warm-up left out). With --allocations it samples allocations instead
// (tools/perf/probes/alloc-probe.cjs, from the start of the measured load, objects freed by a scavenge included) and prints the
// bytes each package and function allocated per request.
//
// With --against-floor it profiles the API floor's two processes too (bench/api.mjs), the floor then the system at one
// fixed rate (--rate, requests/s), and prints each process's CPU per request by package beside its counterpart's:
// the gateway against the floor server, the route's service against the floor responder, the packages ordered by
// what Switchboard spends above the floor (issue 19: what stays above the floor is our cost). `--floor same-parts`
// profiles the same-parts floor instead (the stock Nest, NATS and Prisma parts used plainly, issue 53): what stays
// above it is what we add to the framework, not the framework's price.
//
// Run: node tools/perf/bench/profile-api.mjs [--path numbers|calls] [--allocations | --against-floor [--rate 1000]
//      [--floor bare|same-parts]] [--duration 10] [--connections 32] [--no-build]
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiAccount } from '../lib/clients.mjs';
import { int, kit, say } from '../lib/common.mjs';
import { commandLine } from '../lib/options.mjs';
import { httpLoad, pacedHttp } from '../lib/load.mjs';
import {
  compareCosts,
  costPerRequest,
  monotonicMicros,
  summarizeAllocations,
  summarizeProfile,
  within,
} from '../lib/profile.mjs';
import { compiledMains, SERVICES, startSystem } from '../lib/system.mjs';
import { API_ENV, startFloor } from './api.mjs';

const options = commandLine('node tools/perf/bench/profile-api.mjs', {
  path: { type: 'string', default: 'numbers', choices: ['numbers', 'calls'], help: 'the route: GET /v1/<path>' },
  duration: { type: 'number', default: 10, min: 1 },
  connections: { type: 'number', default: 32, min: 1 },
  top: { type: 'number', default: 25, min: 1 },
  allocations: { type: 'boolean', default: false, help: 'allocations per request instead of CPU' },
  'against-floor': { type: 'boolean', default: false, help: 'the API floor profiled too, at one paced rate' },
  rate: { type: 'number', default: 1000, min: 1, help: 'requests/s with --against-floor' },
  floor: { type: 'string', default: 'bare', choices: ['bare', 'same-parts'], help: 'the floor of --against-floor' },
  'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
});
const { path } = options;
const profileDir = mkdtempSync(join(tmpdir(), 'sb-profile-'));
const allocations = options.allocations;
const againstFloor = options['against-floor'];
if (allocations && againstFloor) throw new Error('--allocations and --against-floor are separate runs');
const service = path === 'calls' ? 'calls-media' : 'numbers-billing';
const samePartsFloor = options.floor === 'same-parts';
/** The floor's profile folders (startFloor in bench/api.mjs) and how the tables name its processes. */
const floorName = samePartsFloor ? 'same-parts' : 'floor';
const floorLabel = samePartsFloor ? 'same-parts' : 'floor';
/** The measured load's window and requests, for the system and (--against-floor) for the floor. */
const measuredLoads = {};
const pids = {};
const system = await startSystem({
  name: 'profile',
  env: allocations ? { ...API_ENV, ALLOC_PROBE_DIR: profileDir } : API_ENV,
  nodeArgs: allocations ? ['--require', join(kit, 'probes/alloc-probe.cjs')] : [],
  profileDir: allocations ? undefined : profileDir,
  // The compiled modules, so that time and allocations are told by package (a bundle is one file).
  mains: compiledMains(),
  build: !options['no-build'],
});
try {
  // A full page of calls for GET /v1/calls, as the API benchmark lists.
  const { key, api } = await apiAccount(system, { name: 'Profile', calls: path === 'calls' });
  await api.all(`/${path}`);
  const headers = { authorization: `Bearer ${key.key}` };
  if (againstFloor) {
    // The floor first, then the system, each warmed up and then measured at the same rate (ADR 0134's order).
    const floor = await startFloor(system, options.floor, { profileDir });
    try {
      for (const [side, url] of [
        ['floor', `${floor.url}/v1/${path}`],
        ['system', `${system.publicUrl}/v1/${path}`],
      ]) {
        const paced = { url, headers, rate: options.rate };
        await pacedHttp({ ...paced, durationS: 3 });
        const from = monotonicMicros();
        const result = await pacedHttp({ ...paced, durationS: options.duration });
        measuredLoads[side] = { window: { from, to: monotonicMicros() }, requests: result.requests };
        say(
          `profile: ${side} GET /v1/${path} at ${int(options.rate)} req/s: p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms`,
        );
      }
    } finally {
      await floor.stop();
    }
  } else {
    const load = { url: `${system.publicUrl}/v1/${path}`, headers, connections: options.connections };
    await httpLoad({ ...load, durationS: 2 });
    for (const app of SERVICES) {
      pids[system.pid(app)] = app;
      if (allocations) process.kill(system.pid(app), 'SIGUSR2');
    }
    const from = monotonicMicros();
    const result = await httpLoad({ ...load, durationS: options.duration });
    measuredLoads.system = { window: { from, to: monotonicMicros() }, requests: result.requests };
    say(`profile: GET /v1/${path}: ${int(result.rps)} req/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms`);
  }
} finally {
  await system.stop();
}
// The measured loads' windows and requests beside the profiles, to read them again by function (within()).
writeFileSync(join(profileDir, 'measured-loads.json'), JSON.stringify(measuredLoads));
const cpuProfile = (name) => {
  const dir = join(profileDir, name);
  const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
  return JSON.parse(readFileSync(join(dir, file), 'utf8'));
};
if (againstFloor) {
  const cost = (name, side) =>
    costPerRequest(within(cpuProfile(name), measuredLoads[side].window), measuredLoads[side].requests);
  // Each process beside the floor's that does its hop.
  for (const [ours, theirs, label] of [
    ['gateway', `${floorName}-server`, `${floorLabel} server`],
    [service, `${floorName}-responder`, `${floorLabel} responder`],
  ]) {
    console.log(`\n## ${ours} against the ${label}\n`);
    console.log(compareCosts([ours, label], cost(ours, 'system'), cost(theirs, 'floor'), { above: options.top }));
  }
} else if (allocations) {
  const { requests } = measuredLoads.system;
  for (const file of readdirSync(profileDir).filter((name) => name.endsWith('.heapprofile'))) {
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
    if (!pids[profile.pid]) continue;
    console.log(
      `\n## ${pids[profile.pid]} (from the measured load until the service stopped, ${int(requests)} requests)\n`,
    );
    console.log(summarizeAllocations(profile, { top: options.top, requests }));
  }
} else {
  for (const app of readdirSync(profileDir)) {
    console.log(`\n## ${app} (the measured load only)\n`);
    console.log(summarizeProfile(within(cpuProfile(app), measuredLoads.system.window), options.top));
  }
}
say(`profiles kept in ${profileDir} (open them in Chrome DevTools or speedscope)`);
