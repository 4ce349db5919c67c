#!/usr/bin/env node
// One build of the workspace at a time. `npm start`, `npm run sdk:pack` and the tests that build what they run
// (service-bundles, npm-start, sdk-packages) all write the same dist folders with `tsc -b` and rolldown; two of
// them at once (Jest runs two test files in parallel, or a second terminal) can read a half-written file. Each
// takes this lock around its build: a directory made with mkdir (atomic on every file system we run on) holding
// the owner's pid. A lock whose owner is gone (killed mid-build) is taken over. A process started by the holder
// (its environment names the holder) builds under the holder's lock rather than waiting for it forever.
//   node tools/dev/build-lock.mjs -- <command> [args...]   runs the command holding the lock, exits with its status
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const defaultRoot = resolve(import.meta.dirname, '..', '..');
const POLL_MS = 250;
const GIVE_UP_MS = 20 * 60_000;
/** A lock directory without its owner file yet, older than this, was left by a process killed between the two. */
const OWNERLESS_GRACE_MS = 5_000;
const HOLDER_VARIABLE = 'SWITCHBOARD_BUILD_LOCK_HOLDER';

export function buildLockPath(root = defaultRoot) {
  return join(root, 'node_modules', '.cache', 'switchboard', 'build.lock');
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The pid holding the lock, 0 when the lock is stale (its owner gone), or undefined when it is free. */
function holder(lock) {
  let made;
  try {
    made = statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
  let pid;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return Date.now() - made > OWNERLESS_GRACE_MS ? 0 : -1;
  }
  return pid > 0 && alive(pid) ? pid : 0;
}

/** One try: true when this process now holds the lock; otherwise the holder's pid (-1: being taken right now). */
function tryTake(lock) {
  mkdirSync(dirname(lock), { recursive: true });
  const inherited = Number(process.env[HOLDER_VARIABLE]);
  if (inherited > 0 && holder(lock) === inherited) return 'nested';
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
  const pid = holder(lock);
  if (pid === 0) rmSync(lock, { recursive: true, force: true });
  return pid ?? 0;
}

function release(lock, taken) {
  if (taken === 'nested') return;
  delete process.env[HOLDER_VARIABLE];
  try {
    if (Number(readFileSync(join(lock, 'pid'), 'utf8')) === process.pid) rmSync(lock, { recursive: true, force: true });
  } catch {
    // already gone
  }
}

const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function waitLoop(lock, say, sleep) {
  const started = Date.now();
  let told = false;
  return {
    next(result) {
      if (result === true || result === 'nested') return false;
      if (!told && result > 0) {
        say(`waiting for another build of this checkout to finish (pid ${result})`);
        told = true;
      }
      if (Date.now() - started > GIVE_UP_MS) throw new Error(`the build lock ${lock} is still held after 20 minutes`);
      return sleep(POLL_MS);
    },
  };
}

/** Runs `fn` (synchronous) holding the build lock. */
export function withBuildLockSync(fn, { root = defaultRoot, say = console.log } = {}) {
  const lock = buildLockPath(root);
  const loop = waitLoop(lock, say, (ms) => (sleepSync(ms), true));
  let taken;
  while (loop.next((taken = tryTake(lock))));
  if (taken === true) process.env[HOLDER_VARIABLE] = String(process.pid);
  try {
    return fn();
  } finally {
    release(lock, taken);
  }
}

/** Runs `fn` (may be async) holding the build lock, without blocking the event loop while it waits. */
export async function withBuildLock(fn, { root = defaultRoot, say = console.log } = {}) {
  const lock = buildLockPath(root);
  const loop = waitLoop(lock, say, (ms) => new Promise((done) => setTimeout(() => done(true), ms)));
  let taken;
  while (await loop.next((taken = tryTake(lock))));
  if (taken === true) process.env[HOLDER_VARIABLE] = String(process.pid);
  try {
    return await fn();
  } finally {
    release(lock, taken);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dash = process.argv.indexOf('--');
  const [command, ...args] = dash === -1 ? [] : process.argv.slice(dash + 1);
  if (!command) {
    console.error('usage: node tools/dev/build-lock.mjs -- <command> [args...]');
    process.exit(2);
  }
  const result = withBuildLockSync(() => spawnSync(command, args, { stdio: 'inherit' }), {
    say: (message) => console.error(`[build-lock] ${message}`),
  });
  if (result.error) {
    console.error(`[build-lock] could not run ${command}: ${result.error.message}`);
    process.exit(1);
  }
  process.exit(result.status ?? 1);
}
