// Where the API's p99 at half rate comes from: runs GET /v1/<path> at half its measured maximum (the open loop of
// the API benchmark) with every service recording its garbage collections and event-loop stalls
// (probes/pause-probe.cjs) and the machine's CPU use sampled every 50 ms, then lines each slow request (over the p99
// target) up with what held up a process or the machine during it.
//
// Run: node tools/perf/bench/tail-api.mjs [--path numbers|calls] [--duration 20] [--rate N] [--slow-ms 25] [--no-build]
import { readFileSync } from 'node:fs';
import { API_ENV } from './api.mjs';
import { apiAccount } from '../lib/clients.mjs';
import { int, say, wallNow } from '../lib/common.mjs';
import { machineCpuBetween, readCpuTimes } from '../lib/cpu.mjs';
import { commandLine } from '../lib/options.mjs';
import { startCanary } from '../lib/canary.mjs';
import { httpLoad, pacedHttp } from '../lib/load.mjs';
import { pauseProbe, pauseTimelines, readPauseProbes, tailReport } from '../lib/pauses.mjs';
import { SERVICES, startSystem } from '../lib/system.mjs';

const options = commandLine('node tools/perf/bench/tail-api.mjs', {
  path: { type: 'string', default: 'numbers', choices: ['numbers', 'calls'], help: 'the route: GET /v1/<path>' },
  duration: { type: 'number', default: 20, min: 1 },
  rate: { type: 'number', default: 0, min: 0, help: 'requests/s (0: half the measured maximum)' },
  connections: { type: 'number', default: 32, min: 1 },
  'slow-ms': { type: 'number', default: 25, min: 1, help: 'a request slower than this is lined up with its causes' },
  'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
});
const SLOW_MS = options['slow-ms'];

const probe = pauseProbe();
const probeDir = probe.dir;
const system = await startSystem({
  name: 'tail',
  env: { ...API_ENV, ...probe.env },
  nodeArgs: probe.nodeArgs,
  build: !options['no-build'],
});
let run;
let machineCpu;
let machinePauses;
const pids = {};
try {
  const { key } = await apiAccount(system, { name: 'Tail', calls: options.path === 'calls' });
  for (const app of SERVICES) pids[system.pid(app)] = app;
  const load = {
    url: `${system.publicUrl}/v1/${options.path}`,
    headers: { authorization: `Bearer ${key.key}` },
    connections: options.connections,
  };
  await httpLoad({ ...load, durationS: 2 });
  let rate = options.rate;
  if (!rate) {
    const max = await httpLoad({ ...load, durationS: 10 });
    rate = max.rps / 2;
    say(`tail: GET /v1/${options.path} max ${int(max.rps)} req/s; now ${int(rate)} req/s for ${options.duration} s`);
  }
  const sampler = sampleMachineCpu(50);
  const canary = startCanary();
  const memory = system.sampleMemory(250);
  // The first 2 s warm up over the same connections and are not counted (tools/perf/lib/load.mjs, `warmupS`).
  run = await pacedHttp({ ...load, rate, durationS: options.duration, warmupS: 2, timeline: true });
  run.memory = memory.stop();
  machinePauses = await canary.stop();
  machineCpu = sampler.stop();
  say(
    `tail: ${int(run.rps)} req/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, max ${run.max_ms} ms; resident MiB at most: ${Object.entries(
      run.memory,
    )
      .map(([app, m]) => `${app} ${m.max_mib}`)
      .join(', ')}`,
  );
} finally {
  await system.stop();
}

// ------------------------------------------------------------------------------------------------ analysis
const processes = pauseTimelines(readPauseProbes(probeDir), pids);
// The canary's late wake-ups: the machine itself stood still (tools/perf/lib/canary.mjs).
processes.push({ app: 'machine (canary)', gc: [], stalls: machinePauses });
console.log(tailReport({ run, processes, machineCpu, slowMs: SLOW_MS, durationS: options.duration }));
say(`pause records kept in ${probeDir}`);

/** Machine-wide CPU (busy and steal, percent of one core, two cores = 200%) in bins of `everyMs`, from /proc/stat. */
function sampleMachineCpu(everyMs) {
  const read = () => ({ at: wallNow(), ...readCpuTimes(readFileSync('/proc/stat', 'utf8')) });
  const bins = [];
  let last = read();
  const timer = setInterval(() => {
    const now = read();
    bins.push(machineCpuBetween(last, now));
    last = now;
  }, everyMs);
  return { stop: () => (clearInterval(timer), bins) };
}
