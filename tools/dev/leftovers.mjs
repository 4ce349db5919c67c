// What an `npm start` killed with SIGKILL leaves running: it had no chance to stop its children, so its services and
// its nats-server go on, orphaned, holding the gateway's ports and the JetStream store, and connected to the
// PostgreSQL the next start stops (postgres.mjs). The next `npm start` stops them first. A process is a leftover when
// it is one of this checkout's services started for this DATA_DIR (its command is
// `apps/<service>/dist/main.bundle.js` under the checkout, or `dist/main.js` as before ADR 0099, and its
// environment's DATA_DIR is this one) or the nats-server of this DATA_DIR's configuration, and its parent is no
// running `npm start`: a benchmark's services (another DATA_DIR) and a second npm start's (a live parent) are left
// alone. Processes are read from /proc (Linux); elsewhere none are found.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRunning } from './run-file.mjs';

/** `{ pid, ppid, argv, env }` of every process this user may read, from /proc. */
export function readProcesses(procDir = '/proc') {
  if (!existsSync(procDir)) return [];
  const processes = [];
  for (const entry of readdirSync(procDir)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join(procDir, entry, 'stat'), 'utf8');
      // The command name in parentheses may hold spaces and parentheses: the fields after the last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const argv = readFileSync(join(procDir, entry, 'cmdline'), 'utf8')
        .split('\0')
        .filter(Boolean);
      const env = readFileSync(join(procDir, entry, 'environ'), 'utf8')
        .split('\0')
        .filter(Boolean);
      processes.push({ pid: Number(entry), ppid, argv, env });
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return processes;
}

/** The leftovers among `processes` (see the file's comment), each with the name to report it by. */
export function leftoverProcesses({ root, dataDir, services, processes }) {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  const isNpmStart = (process) => process?.argv.some((arg) => arg.endsWith(join('tools', 'dev', 'start.mjs')));
  const mains = new Map(
    services.flatMap((service) => [
      [join(root, 'apps', service, 'dist', 'main.bundle.js'), service],
      [join(root, 'apps', service, 'dist', 'main.js'), service],
    ]),
  );
  const natsConfig = join(dataDir, 'nats', 'nats-server.conf');
  const found = [];
  for (const process of processes) {
    if (isNpmStart(byPid.get(process.ppid))) continue;
    const service = process.argv.map((arg) => mains.get(arg)).find(Boolean);
    if (service && process.env.includes(`DATA_DIR=${dataDir}`)) found.push({ pid: process.pid, name: service });
    else if (process.argv.some((arg) => arg.endsWith('nats-server')) && process.argv.includes(natsConfig)) {
      found.push({ pid: process.pid, name: 'nats-server' });
    }
  }
  return found;
}

/** SIGTERM (each stops as on Ctrl-C), then SIGKILL what still runs after `graceMs`. */
export async function stopProcesses(found, graceMs = 10_000) {
  for (const { pid } of found) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  for (const deadline = Date.now() + graceMs; Date.now() < deadline; await sleep(50)) {
    if (!found.some(({ pid }) => isRunning(pid))) return;
  }
  for (const { pid } of found) {
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
}
