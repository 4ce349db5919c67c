// Where the API's p99 at half rate comes from: runs GET /v1/<path> at half its measured maximum (the open loop of
// the API benchmark) with every service recording its garbage collections and event-loop stalls
// (probes/pause-probe.cjs) and the machine's CPU use sampled every 50 ms, then lines each slow request (over the p99
// target) up with what held up a process or the machine during it.
//
// Run: node tools/perf/bench/tail-api.mjs [--path numbers|calls] [--duration 20] [--rate N] [--slow-ms 25] [--no-build]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { API_ENV } from './api.mjs';
import { Admin, Api, callerNumber, pool, provisionFleet } from '../lib/clients.mjs';
import { fmt, int, say, sleep, table } from '../lib/common.mjs';
import { readCpuTimes } from '../lib/cpu.mjs';
import { commandLine } from '../lib/options.mjs';
import { summarize } from '../lib/stats.mjs';
import { startCanary } from '../lib/canary.mjs';
import { httpLoad, pacedHttp } from '../lib/load.mjs';
import { gcKindName, pauseProbe, readPauseProbes } from '../lib/pauses.mjs';
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
  const [{ key, numbers }] = await provisionFleet(system, { numbers: 3, name: 'Tail' });
  if (options.path === 'calls') {
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
    const api = new Api(system, key.key);
    for (let i = 0; i < 50 && (await api.all('/calls')).length < 25; i += 1) await sleep(200);
  }
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
const probes = readPauseProbes(probeDir);
const processes = probes
  .filter((p) => pids[p.pid])
  .map((p) => ({
    app: pids[p.pid],
    gc: p.gc.map((g) => ({ ...g, end: g.at + g.ms })),
    stalls: p.stalls.map((s) => ({ ...s, end: s.at + s.ms })),
  }));
// The canary's late wake-ups: the machine itself stood still (tools/perf/lib/canary.mjs).
processes.push({ app: 'machine (canary)', gc: [], stalls: machinePauses });
const from = run.timeline[0].at;
const to = Math.max(...run.timeline.map((r) => r.at + r.ms));
const inRun = (e) => e.end >= from && e.at <= to;
const overlap = (e, a, b) => Math.max(0, Math.min(e.end, b) - Math.max(e.at, a));

console.log(`\n## What held up each process during the ${options.duration} s at ${int(run.target_rate)} req/s\n`);
const rows = [];
for (const p of processes) {
  const gc = p.gc.filter(inRun);
  const byKind = {};
  for (const g of gc) {
    const kind = gcKindName(g.kind);
    byKind[kind] ??= { n: 0, total: 0, max: 0 };
    byKind[kind].n += 1;
    byKind[kind].total += g.ms;
    byKind[kind].max = Math.max(byKind[kind].max, g.ms);
  }
  const stalls = p.stalls.filter(inRun);
  rows.push([
    p.app,
    Object.entries(byKind)
      .map(([k, v]) => `${k} ${v.n} (${fmt(v.total, 0)} ms, max ${fmt(v.max, 1)})`)
      .join(', ') || '-',
    `${stalls.length} (${fmt(
      stalls.reduce((s, x) => s + x.ms, 0),
      0,
    )} ms, max ${fmt(Math.max(0, ...stalls.map((x) => x.ms)), 1)})`,
    int(stalls.filter((s) => s.ms >= 20).length),
  ]);
}
console.log(table(['process', 'garbage collections', 'event-loop stalls over 5 ms', 'stalls of 20 ms+'], rows));

const slow = run.timeline.filter((r) => r.ms > SLOW_MS);
console.log(
  `\n## The ${int(slow.length)} requests over ${SLOW_MS} ms (of ${int(run.timeline.length)}; p99 ${run.p99_ms} ms)\n`,
);
const cause = (r) => {
  const a = r.at;
  const b = r.at + r.ms;
  const found = [];
  if (r.late_ms > 5) found.push(['load generator late', r.late_ms]);
  for (const p of processes) {
    const stall = p.stalls.reduce((s, e) => s + overlap(e, a, b), 0);
    const gc = p.gc.reduce((s, e) => s + overlap(e, a, b), 0);
    if (stall > 5) found.push([`${p.app} stalled`, stall]);
    if (gc > 2) found.push([`${p.app} GC`, gc]);
  }
  const bins = machineCpu.filter((bin) => bin.end > a && bin.at < b);
  const busy = bins.length ? bins.reduce((s, x) => s + x.busy, 0) / bins.length : NaN;
  const steal = bins.length ? bins.reduce((s, x) => s + x.steal, 0) / bins.length : NaN;
  return { found: found.sort((x, y) => y[1] - x[1]), busy, steal };
};
const tally = {};
let unexplained = 0;
const busyOfSlow = [];
const stealOfSlow = [];
for (const r of slow) {
  const { found, busy, steal } = cause(r);
  busyOfSlow.push(busy);
  stealOfSlow.push(steal);
  if (found.length === 0) unexplained += 1;
  for (const [what] of found) tally[what] = (tally[what] ?? 0) + 1;
}
console.log(
  table(
    ['held up by (a request may count under several)', 'slow requests'],
    [
      ...Object.entries(tally)
        .sort((a, b) => b[1] - a[1])
        .map(([what, n]) => [what, int(n)]),
      ['nothing recorded (waiting on PostgreSQL, NATS, the kernel)', int(unexplained)],
    ],
  ),
);
const allBusy = summarize(machineCpu.filter((bin) => bin.end > from && bin.at < to).map((b) => b.busy));
const slowBusy = summarize(busyOfSlow.filter(Number.isFinite));
console.log(
  `\nmachine CPU busy (of 2 cores = 200%) in 50 ms bins: all bins p50 ${allBusy.p50_ms}%, p90 ${allBusy.p90_ms}%; bins holding slow requests p50 ${slowBusy.p50_ms}%, p90 ${slowBusy.p90_ms}%; steal during slow requests mean ${fmt(stealOfSlow.filter(Number.isFinite).reduce((s, v) => s + v, 0) / (stealOfSlow.length || 1), 1)}%`,
);

// Incidents: slow requests whose windows overlap, with what every process did during the incident.
const incidents = [];
for (const r of [...slow].sort((a, b) => a.at - b.at)) {
  const last = incidents.at(-1);
  if (last && r.at <= last.to) {
    last.to = Math.max(last.to, r.at + r.ms);
    last.n += 1;
    last.worst = Math.max(last.worst, r.ms);
  } else incidents.push({ from: r.at, to: r.at + r.ms, n: 1, worst: r.ms });
}
console.log(`\n## ${incidents.length} incidents (slow requests overlapping in time), largest first\n`);
console.log(
  table(
    ['at s', 'slow requests', 'worst ms', 'during the incident'],
    incidents
      .sort((a, b) => b.n - a.n)
      .slice(0, 15)
      .map((i) => {
        const { found, busy, steal } = cause({
          at: i.from,
          ms: i.to - i.from,
          late_ms: Math.max(...run.timeline.filter((r) => r.at >= i.from && r.at <= i.to).map((r) => r.late_ms)),
        });
        return [
          fmt((i.from - from) / 1000, 2),
          int(i.n),
          fmt(i.worst, 0),
          `${found.map(([w, ms]) => `${w} ${fmt(ms, 0)} ms`).join(', ') || 'nothing recorded'}; CPU ${fmt(busy, 0)}%, steal ${fmt(steal, 0)}%`,
        ];
      }),
  ),
);
say(`pause records kept in ${probeDir}`);

/** Machine-wide CPU (busy and steal, percent of one core, two cores = 200%) in bins of `everyMs`, from /proc/stat. */
function sampleMachineCpu(everyMs) {
  const read = () => ({
    at: performance.timeOrigin + performance.now(),
    ...readCpuTimes(readFileSync('/proc/stat', 'utf8')),
  });
  const bins = [];
  let last = read();
  const timer = setInterval(() => {
    const now = read();
    const ticks = (now.at - last.at) / 10; // USER_HZ = 100
    bins.push({
      at: last.at,
      end: now.at,
      busy: (100 * (now.busy - last.busy)) / ticks,
      steal: (100 * (now.steal - last.steal)) / ticks,
    });
    last = now;
  }, everyMs);
  return { stop: () => (clearInterval(timer), bins) };
}
