#!/usr/bin/env node
// `npm test`: every check a change must pass, run as the projects' Nx targets (`nx run-many`), in the order that
// fails fastest:
//   1. checks: each project's type check and lint (type-aware, module boundaries), the code layout (Prettier), each
//      app's schema.prisma against its committed migrations, the deploy/ manifests. Cached by Nx: a project whose
//      inputs did not change is not checked again.
//   2. the console (apps/console) built with Vite when its dist is missing or older than its sources
//   3. each project's unit tests (cached, as pure functions of their inputs) and integration tests (real PostgreSQL
//      and NATS: never cached)
//   4. the system: end-to-end (the five services booted, over HTTP) and browser (the console in Chromium against
//      the booted system), one task at a time, each with two Jest workers
// Every Jest task writes its JSON report under dist/jest/; the summary reads them all back, lists every skipped test
// with its reason (skipped-tests.mjs) and fails when a test file Jest knows ran in no task (jest-reports.mjs).
// First it installs what is missing, as `npm start` does (install-missing.mjs), so it works on a fresh clone.
// PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) must answer and the
// nats-server command be installed (each run starts its own, with the services' users); .ci/run sees to both.
// Extra arguments go to one Jest run over the whole suite instead (e.g. `npm test -- test/e2e/gateway.e2e-spec.ts`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildConsoleIfStale } from './console-build.mjs';
import { installWhatIsMissing } from './install-missing.mjs';
import { readReports, testFilesNotRun } from './jest-reports.mjs';
import { describeSkipped, filtersByName, skippedTests } from './skipped-tests.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const jestArgs = process.argv.slice(2);
const reports = join(root, 'dist', 'jest');

function step(title, command, args, env = {}) {
  console.log(`\n=== ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', ...env },
  });
  // A command that could not even start (a missing binary) says so, rather than a bare FAILED.
  if (result.error) console.log(`=== ${title}: could not run ${command}: ${result.error.message}`);
  console.log(
    `=== ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return result.status === 0;
}

/** Runs targets of every project that has them; Nx goes on with the other tasks when one fails. */
function nx(title, targets, parallel) {
  return step(title, bin('nx'), ['run-many', '--targets', targets.join(','), `--parallel=${parallel}`], {
    // No daemon left running after the tests; no remote cache.
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    // Type-aware lint loads every package's types, the providers' SDKs among them (Stripe's alone are tens of MB).
    NODE_OPTIONS: '--max-old-space-size=8192',
  });
}

if (!installWhatIsMissing({ root, say: (message) => console.log(`[npm test] ${message}`) })) process.exit(1);

let ok = true;
let report;
if (jestArgs.length === 0) {
  rmSync(reports, { recursive: true, force: true });
  ok =
    nx(
      'checks (type check, lint, format, migrations, deploy manifests)',
      ['typecheck', 'lint', 'format', 'migrations-check', 'deploy-check'],
      2,
    ) && ok;
  // The browser tests drive the built console; a stale build would test yesterday's pages.
  if (!buildConsoleIfStale({ root, say: (message) => console.log(`[npm test] ${message}`) })) ok = false;
  // Two cores: two tasks at once, each with one Jest worker, keep the suite parallel without starving the
  // services the integration tests start.
  ok = nx('unit and integration tests', ['test', 'integration'], 2) && ok;
  ok = nx('end-to-end and browser tests', ['e2e', 'browser'], 1) && ok;
  report = readReports(reports, root);
  const listed = spawnSync(bin('jest'), ['--listTests'], { cwd: root, encoding: 'utf8' });
  const notRun = testFilesNotRun(listed.stdout.split('\n').filter(Boolean), report, root);
  if (listed.status !== 0 || notRun.length > 0) {
    ok = false;
    console.log(`\nTest files no Nx task ran (give their project the target, or its pattern the folder):`);
    console.log(notRun.map((file) => `  ${file}`).join('\n') || `  (jest --listTests failed: ${listed.stderr})`);
  }
} else {
  // The console, for browser tests among the files asked for.
  if (!buildConsoleIfStale({ root, say: (message) => console.log(`[npm test] ${message}`) })) ok = false;
  const file = join(tmpdir(), `switchboard-jest-${process.pid}.json`);
  ok = step('jest', bin('jest'), ['--maxWorkers=2', '--json', `--outputFile=${file}`, ...jestArgs]) && ok;
  if (existsSync(file)) {
    report = JSON.parse(readFileSync(file, 'utf8'));
    rmSync(file, { force: true });
  }
}

if (report) {
  const skipped = skippedTests(report, root);
  if (skipped.length > 0)
    console.log(`\nSkipped, and why:\n${describeSkipped(skipped, { nameFilter: filtersByName(jestArgs) }).join('\n')}`);
  console.log(
    `\n${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`,
  );
  if (report.numTotalTests === 0) ok = false;
}
process.exit(ok ? 0 : 1);
