import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../tools/dev/free-port.mjs';
import { readProcesses } from '../../tools/dev/leftovers.mjs';
import { waitFor } from './support';

// tsc -b and the five bundles when stale (15 s to 4 minutes on a busy machine), the start, two crashes and a stop.
jest.setTimeout(600_000);

const root = join(__dirname, '..', '..');

/** The process group of a process (`ps -o pgid`), to tell what a terminal's Ctrl-C reaches. */
function processGroup(pid: number): number {
  return Number(spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim());
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Issue 47: `npm start` (tools/dev/start.mjs) run as a person runs it, in a process group of its own as a terminal
 * would, with a DATA_DIR, ports, PostgreSQL and nats-server of its own: both servers killed with SIGKILL come back on
 * their ports and the gateway answers /readyz again; Ctrl-C (SIGINT to the group) then stops the services before the
 * database and the bus, and nothing logs an error or a stack trace on the way out.
 */
describe('npm start', () => {
  let base: string;
  let dataDir: string;
  let start: ChildProcess | undefined;
  let output = '';

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'sb-npm-start-'));
    chmodSync(base, 0o755); // as root, PostgreSQL runs as the postgres user, who must reach DATA_DIR
    dataDir = join(base, 'data');
  });
  afterAll(async () => {
    // After a failure: Ctrl-C, then SIGKILL to the group and to the servers of their own groups.
    if (start?.pid && start.exitCode === null) {
      const gone = new Promise((resolve) => start!.once('exit', resolve));
      process.kill(-start.pid, 'SIGINT');
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 60_000))]);
      if (start.exitCode === null) process.kill(-start.pid, 'SIGKILL');
    }
    const leftovers = [natsPid(), Number(postmaster()[0])].filter((pid) => pid > 0 && alive(pid));
    for (const pid of leftovers) process.kill(pid, 'SIGKILL');
    rmSync(base, { recursive: true, force: true });
  });

  const since = (mark: number) => output.slice(mark);
  const postmaster = () => {
    try {
      return readFileSync(join(dataDir, 'postgres', 'cluster', 'postmaster.pid'), 'utf8').split('\n');
    } catch {
      return [];
    }
  };
  const natsPid = () =>
    readProcesses().find(({ argv }) => argv.includes(join(dataDir, 'nats', 'nats-server.conf')))?.pid ?? 0;

  it('restarts its own PostgreSQL and nats-server after kill -9, and on Ctrl-C stops the services first', async () => {
    const [port, adminPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      EMBEDDED_DATABASE: 'postgres',
      LOG_LEVEL: 'info',
    };
    // detached: a process group of its own, as a terminal gives a command; its SIGINT is the terminal's Ctrl-C.
    start = spawn(process.execPath, [join(root, 'tools', 'dev', 'start.mjs')], {
      cwd: root,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    start.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    start.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => start!.once('exit', (code) => resolve(code)));
    const ready = async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 ? true : undefined;
      } catch {
        return undefined;
      }
    };
    await waitFor(() => (output.includes('[switchboard] ready.') ? true : undefined), 420_000, 200).catch((error) => {
      throw new Error(`npm start did not become ready: ${error}\n${output.slice(-4000)}`);
    });

    const [postgresPid, , , postgresPort] = postmaster().map((line) => line.trim());
    const nats = natsPid();
    const natsPort = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(output)![1];
    // Neither server is in npm start's process group: a terminal's Ctrl-C does not reach them.
    expect(processGroup(Number(postgresPid))).not.toBe(start.pid);
    expect(processGroup(nats)).not.toBe(start.pid);

    const killed = output.length;
    process.kill(Number(postgresPid), 'SIGKILL');
    process.kill(nats, 'SIGKILL');
    await waitFor(
      () =>
        /\[switchboard\] postgres restarted \(pid \d+\)/.test(since(killed)) &&
        /\[switchboard\] nats-server restarted \(pid \d+\)/.test(since(killed))
          ? true
          : undefined,
      30_000,
    );
    expect(since(killed)).toMatch(
      /\[switchboard\] postgres exited \(SIGKILL\) after [\d.]+ s; restarting it in 1 s \(restart 1 in a row\)/,
    );
    expect(since(killed)).toMatch(
      /\[switchboard\] nats-server exited \(SIGKILL\) after [\d.]+ s; restarting it in 1 s \(restart 1 in a row\)/,
    );
    // The gateway answers again: every service reconnected to the same ports.
    await waitFor(ready, 120_000, 250);
    const [newPostgresPid, , , newPostgresPort] = postmaster().map((line) => line.trim());
    expect(newPostgresPid).not.toBe(postgresPid);
    expect(newPostgresPort).toBe(postgresPort);
    expect(since(killed)).toContain(`Listening for client connections on 127.0.0.1:${natsPort}`);
    expect(output).not.toContain('stopping.');

    const stopped = output.length;
    process.kill(-start.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    const stop = since(stopped);
    // The two servers are named in the order they came up, which varies.
    const marker = stop.search(
      /\[switchboard\] services stopped; stopping (postgres and nats-server|nats-server and postgres)/,
    );
    // Said in full when it fails: the order of a stop's lines is what this test is about.
    if (marker === -1) throw new Error(`no "services stopped" line in what npm start said on Ctrl-C:\n${stop}`);
    // After the services had all exited: nothing of theirs after the line, the bus's shutdown only after it.
    expect(stop.slice(marker)).not.toMatch(/^(gateway|numbers-billing|calls-media|lostfound|webhook-dispatcher) +\|/m);
    expect(stop.indexOf('Initiating Shutdown')).toBeGreaterThan(marker);
    expect(stop).toContain('[switchboard] stopped.');
    // A clean stop: no stack trace, no error or warning from a service that lost its database or bus mid-drain.
    expect(stop).not.toMatch(/stack|"level":"(warn|error|fatal)"|Error:/);
    expect(alive(Number(newPostgresPid))).toBe(false);
    expect(readFileSync(join(dataDir, 'postgres', 'postgres.log'), 'utf8')).toMatch(/received fast shutdown request/);
  });
});
