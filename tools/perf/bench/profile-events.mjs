// Where the events pipeline spends its CPU: starts the system with --cpu-prof, provisions numbers with HTTPS
// receivers, warms the path with one call to each number, then reports a burst of calls and waits for every
// delivery. Stops the services (which writes their profiles) and prints, for each service, the hottest packages and
// functions of the burst alone (samples outside it, start-up and provisioning included, are left out).
//
// V8's profiler samples wall time: a thread descheduled inside a system call (two cores shared by eight busy
// processes) counts there, so socket writes look two to three times their real cost. With --on-cpu the burst is
// recorded instead by `perf record -a -e cpu-clock` (samples only of what runs on a core, the kernel included), and
// each service's CPU is split into the kernel, V8 and the rest of the node binary (OpenSSL included), JIT code and
// the C libraries. Needs perf, run as root or with perf_event_paranoid <= 1.
//
// Run: node tools/perf/bench/profile-events.mjs [--numbers 300] [--calls 1500] [--apps calls-media,webhook-dispatcher] [--on-cpu] [--no-build]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { int, say, sleep } from '../lib/common.mjs';
import { commandLine } from '../lib/options.mjs';
import { monotonicMicros, parsePerfReport, summarizeProfile, within } from '../lib/profile.mjs';
import { fleetWithReceiver } from '../lib/receiver.mjs';
import { compiledMains, SERVICES, startSystem } from '../lib/system.mjs';
import { eventsSetup, injectBurst, reportInjector, waitDelivered } from './events.mjs';

const options = commandLine('node tools/perf/bench/profile-events.mjs', {
  numbers: { type: 'number', default: 300, min: 1 },
  calls: { type: 'number', default: 1500, min: 1 },
  'inject-concurrency': { type: 'number', default: 64, min: 1 },
  apps: {
    type: 'list',
    default: ['calls-media', 'webhook-dispatcher', 'numbers-billing'],
    choices: SERVICES,
    help: 'the services whose profiles are printed',
  },
  top: { type: 'number', default: 30, min: 1 },
  'on-cpu': {
    type: 'boolean',
    default: false,
    help: 'record the burst with perf (on-CPU samples, the kernel included)',
  },
  'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
});
const onCpu = options['on-cpu'];

const setup = eventsSetup();
const profileDir = mkdtempSync(join(tmpdir(), 'sb-profile-events-'));
const perfData = join(profileDir, 'perf.data');
const system = await startSystem({
  name: 'profileevents',
  env: setup.env,
  serviceEnv: setup.serviceEnv,
  ...(onCpu
    ? // JIT code named in perf's samples (/tmp/perf-<pid>.map).
      { nodeArgs: ['--perf-basic-prof-only-functions'] }
    : // The compiled modules, so that time and allocations are told by package (a bundle is one file).
      { profileDir, mains: compiledMains() }),
  build: !options['no-build'],
});
const pids = {};
let window;
try {
  const { receiver, numbers } = await fleetWithReceiver(system, setup.tls, {
    numbers: options.numbers,
    name: 'Events profile',
  });
  const reports = reportInjector(`${system.adminUrl}/admin/provider/calls`, {
    authorization: `Bearer ${system.adminToken}`,
  });
  /** Reports one call to each of `targets` (`inject-concurrency` at once) and waits until each was delivered. */
  const deliver = async (targets) => {
    const { accepted } = await injectBurst(reports, targets, options['inject-concurrency']);
    return (await waitDelivered(receiver, accepted, 180_000, 0)).delivered.size;
  };
  try {
    say(`profile: warm-up, one call to each of ${int(numbers.length)} numbers`);
    await deliver(numbers);
    const order = Array.from({ length: options.calls }, (_, i) => numbers[i % numbers.length]);
    say(`profile: burst of ${int(order.length)} calls`);
    for (const app of SERVICES) pids[system.pid(app)] = app;
    const perf = onCpu ? await startPerf(perfData) : undefined;
    const from = monotonicMicros();
    const started = Date.now();
    const delivered = await deliver(order);
    window = { from, to: monotonicMicros() };
    await perf?.stop();
    const seconds = (Date.now() - started) / 1000;
    say(
      `profile: ${int(delivered)} of ${int(order.length)} delivered in ${seconds.toFixed(1)} s (${int(delivered / seconds)}/s, under the profiler)`,
    );
  } finally {
    reports.close();
    await receiver.stop();
  }
} finally {
  await system.stop();
  setup.cleanup();
}

if (onCpu) {
  printOnCpu(perfData, pids);
  // The JIT symbol maps node wrote for perf.
  for (const pid of Object.keys(pids)) rmSync(`/tmp/perf-${pid}.map`, { force: true });
}
for (const app of onCpu ? [] : options.apps) {
  const dir = join(profileDir, app);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    console.log(`\n## ${app} (the burst only)\n`);
    console.log(summarizeProfile(within(JSON.parse(readFileSync(join(dir, file), 'utf8')), window), options.top));
  }
}
say(`profiles kept in ${profileDir} (whole runs; open them in Chrome DevTools or speedscope)`);

/** `perf record` of every core until `stop()` resolves, once perf has written its file. */
async function startPerf(file) {
  const perf = spawn('perf', ['record', '-a', '-e', 'cpu-clock', '-F', '499', '-o', file, '--quiet'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve, reject) => {
    perf.once('error', (error) => reject(new Error(`perf did not start (${error.message}); is it installed?`)));
    perf.once('exit', resolve);
  });
  await sleep(500);
  return {
    async stop() {
      perf.kill('SIGINT');
      await exited;
    },
  };
}

/** Each service's share of the machine's samples, and where in it: the kernel, the node binary, JIT code, libc. */
function printOnCpu(file, byPid) {
  const report = spawnSync(
    'perf',
    ['report', '-i', file, '--no-children', '--sort', 'pid,dso', '-g', 'none', '--stdio'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (report.status !== 0) throw new Error(`perf report failed: ${report.stderr}`);
  const shares = parsePerfReport(report.stdout, byPid);
  console.log('\n## on-CPU samples of the burst (perf, all cores), by service\n');
  for (const [app, parts] of Object.entries(shares)) {
    const total = Object.values(parts).reduce((sum, value) => sum + value, 0);
    const split = Object.entries(parts)
      .sort((a, b) => b[1] - a[1])
      .map(([dso, value]) => `${dso} ${((value / total) * 100).toFixed(1)}%`)
      .join(', ');
    console.log(`${app}: ${total.toFixed(1)}% of the machine's samples; ${split}`);
  }
}
