// `npm start` to ready (issue 45's guard: under 10 s on a built tree): runs tools/dev/start.mjs as a person runs it,
// in a process group of its own as a terminal gives a command, with a DATA_DIR, ports, PostgreSQL and nats-server of
// its own, and times the command to its ready line. Twice: with new databases (a first start: the cluster made, the
// databases created and migrated), then with them there (every later start, which the guard reads). After each, a
// Ctrl-C (SIGINT to the group) stops it as a person would.
//
// Run alone: node tools/perf/bench/startup.mjs [--runs 1]
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../dev/free-port.mjs';
import { readProcesses } from '../../dev/leftovers.mjs';
import { fmt, machine, root, say, writeResults } from '../lib/common.mjs';
import { commandLine } from '../lib/options.mjs';
import { startupReport, startupResult } from './report.mjs';

/** The line tools/dev/start.mjs prints once the gateway's /readyz answers 200. */
const READY_LINE = /^\[switchboard\] ready\./m;

export const STARTUP_OPTIONS = {
  'startup-runs': { type: 'number', default: 1, min: 1, help: 'starts with the databases there (the median is read)' },
};

/** Spawns `npm start` (tools/dev/start.mjs) and resolves with the seconds to its ready line; rejects after 3 min. */
function startOnce(env) {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'tools/dev/start.mjs')], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start was not ready in 3 minutes:\n${output.slice(-2000)}`)),
      180_000,
    );
    const read = (chunk) => {
      output += chunk;
      if (READY_LINE.test(output)) {
        clearTimeout(timer);
        resolve((performance.now() - started) / 1000);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGINT');
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 60_000))]);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  };
  return { ready, stop };
}

/** { new_databases_s, existing_databases_s (the median of `runs`), runs_s }. */
export async function startupBenchmark({ runs = 1 } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'sb-perf-startup-'));
  chmodSync(base, 0o755); // as root, PostgreSQL runs as the postgres user, who must reach DATA_DIR
  const dataDir = join(base, 'data');
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    EMBEDDED_DATABASE: 'postgres',
    LOG_LEVEL: 'warn',
  };
  const times = [];
  try {
    for (let run = 0; run <= runs; run += 1) {
      const start = startOnce(env);
      try {
        times.push(await start.ready);
        say(`startup: ${run === 0 ? 'new databases' : 'databases there'}: ready after ${fmt(times.at(-1), 1)} s`);
      } finally {
        await start.stop();
      }
    }
  } finally {
    // After a failure: what a stopped start left of its own servers (a clean Ctrl-C leaves nothing).
    const postmaster = (() => {
      try {
        return Number(readFileSync(join(dataDir, 'postgres', 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return 0;
      }
    })();
    const nats = readProcesses().find(({ argv }) => argv.includes(join(dataDir, 'nats', 'nats-server.conf')))?.pid;
    for (const pid of [postmaster, nats].filter((pid) => pid > 0))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    rmSync(base, { recursive: true, force: true });
  }
  return startupResult(times);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = commandLine('node tools/perf/bench/startup.mjs', STARTUP_OPTIONS);
  const results = await startupBenchmark({ runs: options['startup-runs'] });
  console.log(`\n${startupReport(results)}`);
  console.log(`\nresults: ${writeResults('startup', { benchmark: 'startup', machine: machine(), ...results })}`);
}
