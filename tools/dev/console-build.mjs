#!/usr/bin/env node
// The console's build (apps/console, ADR 0080), shared by `npm run build`, `npm start`, `npm test` and the browser
// tests' global setup: Vite builds it into apps/console/dist, which the gateway serves at /console/.
//   node tools/dev/console-build.mjs             build now
//   node tools/dev/console-build.mjs --if-stale  build only when dist is missing or older than a source file
// Whether it is stale is a plain function of what is on disk, so it is unit-tested (console-build.spec.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What the build reads: a change to any of them makes dist stale. */
const SOURCES = ['index.html', 'vite.config.mjs', 'package.json', 'tsconfig.json', 'src', 'public'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

/** Why apps/console/dist must be built, or undefined when it is newer than every source. */
export function consoleStaleness(root) {
  const app = join(root, 'apps', 'console');
  const built = join(app, 'dist', 'index.html');
  if (!existsSync(built)) return 'apps/console/dist is not built yet';
  const sources = Math.max(...SOURCES.map((name) => newestMtime(join(app, name))));
  return sources > statSync(built).mtimeMs ? 'apps/console has changed since its last build' : undefined;
}

/** Builds apps/console/dist with Vite (3-10 s); true when it worked. */
export function buildConsole({ root, say = (message) => console.log(message), env = process.env }) {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  say('building the console (apps/console, Vite)...');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', join(root, 'apps', 'console', 'vite.config.mjs')],
    { cwd: root, stdio: 'inherit', env },
  );
  if (result.status !== 0) say(`building the console failed (exit ${result.status ?? result.signal}).`);
  return result.status === 0;
}

/** Builds the console when it is missing or stale; true when dist is up to date afterwards. */
export function buildConsoleIfStale({ root, say = (message) => console.log(message), env = process.env }) {
  const why = consoleStaleness(root);
  if (!why) return true;
  say(`${why}.`);
  return buildConsole({ root, say, env });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..', '..');
  const ok = process.argv.includes('--if-stale') ? buildConsoleIfStale({ root }) : buildConsole({ root });
  process.exit(ok ? 0 : 1);
}
