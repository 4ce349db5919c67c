// Where the API path spends its CPU: starts the system with --cpu-prof, loads GET /v1/<path> for a while, stops
// the services (which writes their profiles) and prints the hottest functions and packages of each service during
// the measured load (start-up, provisioning and warm-up left out). With --allocations it samples allocations instead
// (lib/alloc-probe.cjs, from the start of the measured load, objects freed by a scavenge included) and prints the
// bytes each package and function allocated per request.
//
// Run: node tools/bench/profile-api.mjs [--path numbers|calls] [--allocations] [--duration 10] [--connections 32] [--no-build]
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, Api, callerNumber, pool, provisionFleet } from './lib/clients.mjs';
import { int, parseOptions, root, say, sleep } from './lib/common.mjs';
import { httpLoad } from './lib/load.mjs';
import { monotonicMicros, summarizeAllocations, summarizeProfile, within } from './lib/profile.mjs';
import { compiledMains, SERVICES, startSystem } from './lib/system.mjs';
import { API_ENV } from './api.mjs';

const options = parseOptions(process.argv.slice(2), {
  path: { type: 'string', default: 'numbers' },
  duration: { type: 'number', default: 10 },
  connections: { type: 'number', default: 32 },
  top: { type: 'number', default: 25 },
  allocations: { type: 'boolean', default: false },
  'no-build': { type: 'boolean', default: false },
});
const profileDir = mkdtempSync(join(tmpdir(), 'sb-profile-'));
const allocations = options.allocations;
let window;
let requests;
const pids = {};
const system = await startSystem({
  name: 'profile',
  env: allocations ? { ...API_ENV, ALLOC_PROBE_DIR: profileDir } : API_ENV,
  nodeArgs: allocations ? ['--require', join(root, 'tools/bench/lib/alloc-probe.cjs')] : [],
  profileDir: allocations ? undefined : profileDir,
  // The compiled modules, so that time and allocations are told by package (a bundle is one file).
  mains: compiledMains(),
  build: !options['no-build'],
});
try {
  const [{ key, numbers }] = await provisionFleet(system, { numbers: 3, name: 'Profile' });
  const api = new Api(system, key.key);
  if (options.path === 'calls') {
    // A full page of calls, as the API benchmark lists.
    const admin = new Admin(system);
    await sleep(500);
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
    for (let i = 0; i < 50 && (await api.all('/calls')).length < 25; i += 1) await sleep(200);
  }
  await api.all(`/${options.path}`);
  const load = {
    url: `${system.publicUrl}/v1/${options.path}`,
    headers: { authorization: `Bearer ${key.key}` },
    connections: options.connections,
  };
  await httpLoad({ ...load, durationS: 2 });
  for (const app of SERVICES) {
    pids[system.pid(app)] = app;
    if (allocations) process.kill(system.pid(app), 'SIGUSR2');
  }
  const from = monotonicMicros();
  const result = await httpLoad({ ...load, durationS: options.duration });
  window = { from, to: monotonicMicros() };
  requests = result.requests;
  say(`profile: GET /v1/${options.path}: ${int(result.rps)} req/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms`);
} finally {
  await system.stop();
}
if (allocations) {
  for (const file of readdirSync(profileDir).filter((name) => name.endsWith('.heapprofile'))) {
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
    if (!pids[profile.pid]) continue;
    console.log(
      `\n## ${pids[profile.pid]} (from the measured load until the service stopped, ${int(requests)} requests)\n`,
    );
    console.log(summarizeAllocations(profile, { top: options.top, requests }));
  }
}
for (const app of allocations ? [] : readdirSync(profileDir)) {
  const dir = join(profileDir, app);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    console.log(`\n## ${app} (the measured load only)\n`);
    console.log(summarizeProfile(within(JSON.parse(readFileSync(join(dir, file), 'utf8')), window), options.top));
  }
}
say(`profiles kept in ${profileDir} (open them in Chrome DevTools or speedscope)`);
