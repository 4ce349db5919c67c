#!/usr/bin/env node
// `npm test`: every check a change must pass, in the order that fails fastest.
//   1. type check (swc does not type-check, so tsc runs on its own)
//   2. lint, including the module-boundary rules, and the code layout (Prettier)
//   3. migrations: each app's schema.prisma matches its committed migrations; deploy/ manifests are valid
//   4. the console (apps/console) built with Vite when its dist is missing or older than its sources
//   5. Jest: unit, integration (real PostgreSQL and NATS), end-to-end (the system booted, over HTTP) and browser
//      (the console in Chromium against the booted system)
// First it installs what is missing, as `npm start` does (install-missing.mjs), so it works on a fresh clone.
// PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) must answer and the
// nats-server command be installed (each run starts its own, with the services' users); .ci/run sees to both.
// Extra arguments go to Jest (e.g. `npm test -- test/e2e/gateway.e2e-spec.ts`). The summary lists every skipped
// test with its reason (skipped-tests.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildConsoleIfStale } from './console-build.mjs';
import { installWhatIsMissing } from './install-missing.mjs';
import { describeSkipped, filtersByName, skippedTests } from './skipped-tests.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const jestArgs = process.argv.slice(2);

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

if (!installWhatIsMissing({ root, say: (message) => console.log(`[npm test] ${message}`) })) process.exit(1);

let ok = true;
if (jestArgs.length === 0) {
  ok = step('type check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']) && ok;
  // The console runs in a browser: its own tsconfig (DOM types, JSX); the root one leaves it out.
  ok = step('type check (console)', bin('tsc'), ['-p', join('apps', 'console', 'tsconfig.json'), '--noEmit']) && ok;
  // Type-aware lint loads every package's types, the providers' SDKs among them (Stripe's alone are tens of MB):
  // about 5 GB of heap, past Node's default limit on these machines (24 GiB).
  ok = step('lint', bin('eslint'), ['--max-warnings=0', '.'], { NODE_OPTIONS: '--max-old-space-size=8192' }) && ok;
  // One layout for all code (.prettierrc.json); `npx prettier --write .` fixes what this reports.
  ok = step('format', bin('prettier'), ['--check', '--log-level=warn', '.']) && ok;
  ok =
    step('migrations match schemas', process.execPath, [join(root, 'tools', 'prisma', 'check-migrations.mjs')]) && ok;
  ok = step('deploy manifests', process.execPath, [join(root, 'tools', 'deploy', 'check.mjs')]) && ok;
}
// The browser tests drive the built console; a stale build would test yesterday's pages.
if (!buildConsoleIfStale({ root, say: (message) => console.log(`[npm test] ${message}`) })) ok = false;
const report = join(tmpdir(), `switchboard-jest-${process.pid}.json`);
// Two cores: two workers keep the suite parallel without starving the services the tests boot.
ok =
  step('jest (unit, integration, e2e, browser)', bin('jest'), [
    '--maxWorkers=2',
    '--json',
    `--outputFile=${report}`,
    ...jestArgs,
  ]) && ok;

if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  rmSync(report, { force: true });
  const skipped = skippedTests(results, root);
  if (skipped.length > 0)
    console.log(`\nSkipped, and why:\n${describeSkipped(skipped, { nameFilter: filtersByName(jestArgs) }).join('\n')}`);
  console.log(
    `\n${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`,
  );
  if (results.numTotalTests === 0) ok = false;
}
process.exit(ok ? 0 : 1);
