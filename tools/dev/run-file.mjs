// The run file: how a running `npm start` tells the operator CLI (tools/admin/cli.mjs) in another terminal where
// its operator API is, so that terminal needs no DATA_DIR or ADMIN_PORT exported. `npm start` writes
// DATA_DIR/run.json (mode 0600) once it has started the services and removes it when it stops; the CLI reads it
// from the project's default DATA_DIR (.data) unless DATA_DIR is exported. It names the token's file, never the
// token: the token stays in DATA_DIR/admin-token (or in ADMIN_TOKEN), readable by its owner only.
//
//   { "pid": 4242, "started_at": "...", "data_dir": "/repo/.data", "public_url": "http://127.0.0.1:3000",
//     "admin_url": "http://127.0.0.1:3001", "admin_token_file": "/repo/.data/admin-token" | null }
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const RUN_FILE_NAME = 'run.json';
export const DEFAULT_DATA_DIR = '.data';

/** Where the run file of the project at `root` is, for an environment (DATA_DIR relative to the root, as npm start). */
export function runFilePath(env, root) {
  return join(resolve(root, env.DATA_DIR || DEFAULT_DATA_DIR), RUN_FILE_NAME);
}

/** The URL a local client reaches a server on, from the address it binds (ADMIN_HOST) and its port. */
export function localUrl({ host, port, https }) {
  const reachable = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `${https ? 'https' : 'http'}://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** What npm start writes for the system it runs with `env` (its own environment, defaults applied). */
export function runFileContents(env, pid = process.pid) {
  const https = Boolean(env.TLS_CERT && env.TLS_KEY);
  return {
    pid,
    started_at: new Date().toISOString(),
    data_dir: env.DATA_DIR,
    public_url: localUrl({ host: '127.0.0.1', port: env.PORT, https }),
    admin_url: localUrl({ host: env.ADMIN_HOST, port: env.ADMIN_PORT, https }),
    // With ADMIN_TOKEN set the gateway writes no token file: the CLI's user must export the same token.
    admin_token_file: env.ADMIN_TOKEN ? null : join(env.DATA_DIR, 'admin-token'),
  };
}

/** Writes the run file whole (a reader never sees half of it), readable by its owner only. */
export function writeRunFile(path, contents) {
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, path);
}

/** Removes the run file if it is still the one process `pid` wrote (a second npm start may have replaced it). */
export function removeRunFile(path, pid = process.pid) {
  if (readRunFile(path)?.pid === pid) rmSync(path, { force: true });
}

export function readRunFile(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote a run file still runs (a run file left by a killed npm start is stale). */
export function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
