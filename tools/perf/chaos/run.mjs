#!/usr/bin/env node
// `npm run chaos`: fault tests against the whole system as real processes, each ending with a count of what was lost
// (must be 0) and what was duplicated. Not part of `npm test`: it takes minutes and kills processes.
//
//   kill        kill -9 webhook-dispatcher, calls-media and numbers-billing in the middle of load, restart them
//   nats        restart NATS during load (a nats-server of this run's own, on its own port and store dir)
//   receivers   webhook receivers that hang, answer slowly, reset connections (and one that hangs for good)
//   provisions  1,000 concurrent provisions against a balance that covers 10 (and one that covers 2)
//   sweep       kill -9 calls-media in the middle of a retention sweep, restart it, sweep again
//   live        kill -9 calls-media, then the gateway, while live calls play and a live stream is open; every call
//               must end completed and be billed once (its calls start over --live-spread s, not --duration)
//
// npm run chaos -- [--only kill,nats,receivers,provisions,sweep,live] [--rate 20] [--duration 30] [--no-build]
//   [--keep-logs] (`--help`: all)
// Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), nats-server on the PATH
// and openssl. Everything runs on 127.0.0.1; every process, database and stream it makes is removed at the end.
import { eventsSetup } from '../bench/events.mjs';
import { machine, say, writeResults } from '../lib/common.mjs';
import { chaosVerdict } from '../lib/guards.mjs';
import { commandLine } from '../lib/options.mjs';
import { startSystem } from '../lib/system.mjs';
import { report } from './report.mjs';
import {
  badReceivers,
  concurrentProvisions,
  killDuringLiveCalls,
  killDuringSweep,
  killServices,
  restartNats,
} from './scenarios.mjs';

const ALL = ['kill', 'nats', 'receivers', 'provisions', 'sweep', 'live'];
const options = commandLine('npm run chaos --', {
  only: { type: 'list', default: ALL, choices: ALL, help: 'the fault tests to run' },
  rate: { type: 'number', default: 20, min: 1, help: 'call reports per second during the faults' },
  duration: { type: 'number', default: 30, min: 5, help: 'seconds of traffic per test' },
  'drain-timeout': { type: 'number', default: 120, min: 1, help: 'seconds to wait for every delivery afterwards' },
  concurrent: { type: 'number', default: 1000, min: 1, help: 'concurrent provisions' },
  'live-calls': { type: 'number', default: 40, min: 1, help: 'live calls to start (live)' },
  'live-spread': { type: 'number', default: 4, min: 1, help: 'seconds over which the live calls start (live)' },
  'settle-timeout': {
    type: 'number',
    default: 90,
    min: 1,
    help: 'seconds to wait for every live call to end afterwards (live)',
  },
  'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
  'keep-logs': { type: 'boolean', default: false, help: "keep the services' logs" },
});

const env = {
  // Fault tests need retries in seconds, not minutes: the backoff and the time-out are configuration.
  WEBHOOK_BACKOFF_BASE_MS: '200',
  WEBHOOK_BACKOFF_MAX_MS: '2000',
  WEBHOOK_TIMEOUT_MS: '2000',
  RATE_LIMIT_REQUESTS: '1000000000',
  RATE_LIMIT_WINDOW_SECONDS: '3600',
};
const setup = eventsSetup();
const started = Date.now();
const results = { tool: 'chaos', started_at: new Date().toISOString(), machine: machine(), options, env, tests: [] };
let system;
let failed = false;
try {
  system = await startSystem({
    name: 'chaos',
    env: { ...env, ...setup.env },
    serviceEnv: setup.serviceEnv,
    ownNats: true,
    build: !options['no-build'],
  });
  const common = {
    tls: setup.tls,
    rate: options.rate,
    duration: options.duration,
    drainTimeout: options['drain-timeout'],
  };
  for (const name of options.only) {
    let result;
    try {
      if (name === 'kill') result = await killServices(system, common);
      if (name === 'nats') result = await restartNats(system, common);
      if (name === 'receivers') result = await badReceivers(system, common);
      if (name === 'sweep') result = await killDuringSweep(system);
      if (name === 'live')
        result = await killDuringLiveCalls(system, {
          calls: options['live-calls'],
          spread: options['live-spread'],
          settleTimeout: options['settle-timeout'],
        });
      if (name === 'provisions') {
        result = {
          name: 'concurrent provisions',
          runs: [
            await concurrentProvisions(system, { concurrent: options.concurrent, covers: 10 }),
            await concurrentProvisions(system, { concurrent: options.concurrent, covers: 2, area: '646' }),
          ],
        };
        result.lost = result.runs.reduce((s, r) => s + r.lost, 0);
        result.duplicated = result.runs.reduce((s, r) => s + r.duplicated, 0);
        result.rule_broken = result.runs.some((r) => r.rule_broken);
      }
    } catch (error) {
      console.error(error);
      system.printLogs();
      result = { name, error: String(error?.stack ?? error), lost: NaN, duplicated: NaN };
    }
    results.tests.push({ test: name, ...result });
    say(`chaos: ${name}: lost ${result.lost}, duplicated ${result.duplicated}`);
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await system?.stop({ keepLogs: options['keep-logs'] });
  if (options['keep-logs'] && system) console.log(`logs kept in ${system.dir}`);
  setup.cleanup();
}

results.finished_at = new Date().toISOString();
results.seconds = Math.round((Date.now() - started) / 1000);
console.log(`\n${report(results)}`);
results.verdict = chaosVerdict(results.tests);
console.log(
  results.verdict.held
    ? '\nnothing lost, nothing listed or billed twice, no rule broken'
    : `\nFAILED: ${results.verdict.failures.join('; ')}`,
);
console.log(`results: ${writeResults('chaos', results)}`);
process.exit(failed || !results.verdict.held ? 1 : 0);
