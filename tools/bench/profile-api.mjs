// Where the API path spends its CPU: starts the system with --cpu-prof, loads GET /v1/<path> for a while, stops
// the services (which writes their profiles) and prints the hottest functions and packages of each service during
// the measured load (start-up, provisioning and warm-up left out).
//
// Run: node tools/bench/profile-api.mjs [--path numbers] [--duration 10] [--connections 32] [--no-build]
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Api, provisionFleet } from './lib/clients.mjs';
import { int, parseOptions, say } from './lib/common.mjs';
import { httpLoad } from './lib/load.mjs';
import { monotonicMicros, summarizeProfile, within } from './lib/profile.mjs';
import { startSystem } from './lib/system.mjs';
import { API_ENV } from './api.mjs';

const options = parseOptions(process.argv.slice(2), {
  path: { type: 'string', default: 'numbers' },
  duration: { type: 'number', default: 10 },
  connections: { type: 'number', default: 32 },
  top: { type: 'number', default: 25 },
  'no-build': { type: 'boolean', default: false },
});
const profileDir = mkdtempSync(join(tmpdir(), 'sb-profile-'));
let window;
const system = await startSystem({ name: 'profile', env: API_ENV, profileDir, build: !options['no-build'] });
try {
  const [{ key }] = await provisionFleet(system, { numbers: 3, name: 'Profile' });
  const api = new Api(system, key.key);
  await api.all(`/${options.path}`);
  const load = { url: `${system.publicUrl}/v1/${options.path}`, headers: { authorization: `Bearer ${key.key}` }, connections: options.connections };
  await httpLoad({ ...load, durationS: 2 });
  const from = monotonicMicros();
  const result = await httpLoad({ ...load, durationS: options.duration });
  window = { from, to: monotonicMicros() };
  say(`profile: GET /v1/${options.path}: ${int(result.rps)} req/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms`);
} finally {
  await system.stop();
}
for (const app of readdirSync(profileDir)) {
  const dir = join(profileDir, app);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    console.log(`\n## ${app} (the measured load only)\n`);
    console.log(summarizeProfile(within(JSON.parse(readFileSync(join(dir, file), 'utf8')), window), options.top));
  }
}
say(`profiles kept in ${profileDir} (open them in Chrome DevTools or speedscope)`);
