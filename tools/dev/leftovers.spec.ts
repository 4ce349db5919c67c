import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftoverProcesses, readProcesses, stopProcesses } from './leftovers.mjs';

const root = '/repo';
const dataDir = '/repo/.data';
const services = ['lostfound', 'gateway'];
const NPM_START = { pid: 100, ppid: 1, argv: ['node', 'tools/dev/start.mjs'], env: [] };
const service = (pid: number, ppid: number, name: string, data = dataDir, main = 'main.bundle.js') => ({
  pid,
  ppid,
  argv: ['/usr/bin/node', join(root, 'apps', name, 'dist', main)],
  env: [`DATA_DIR=${data}`, 'PATH=/usr/bin'],
});
const nats = (pid: number, ppid: number, data = dataDir) => ({
  pid,
  ppid,
  argv: ['/usr/sbin/nats-server', '-c', join(data, 'nats', 'nats-server.conf')],
  env: [],
});

describe('what a killed npm start left running', () => {
  it("finds this checkout's services for this DATA_DIR and its nats-server when no npm start is their parent", () => {
    const processes = [service(201, 1, 'lostfound'), service(202, 7, 'gateway'), nats(203, 1)];
    expect(leftoverProcesses({ root, dataDir, services, processes })).toEqual([
      { pid: 201, name: 'lostfound' },
      { pid: 202, name: 'gateway' },
      { pid: 203, name: 'nats-server' },
    ]);
  });

  it('also finds a service an npm start from before the bundles (ADR 0099) started from dist/main.js', () => {
    const processes = [service(201, 1, 'lostfound', dataDir, 'main.js')];
    expect(leftoverProcesses({ root, dataDir, services, processes })).toEqual([{ pid: 201, name: 'lostfound' }]);
  });

  it('leaves a running npm start’s children alone', () => {
    const processes = [NPM_START, service(201, 100, 'lostfound'), nats(203, 100)];
    expect(leftoverProcesses({ root, dataDir, services, processes })).toEqual([]);
  });

  it('leaves services of another DATA_DIR (a benchmark’s) and other checkouts alone', () => {
    const processes = [
      service(201, 1, 'lostfound', '/tmp/sb-bench-1/data'),
      nats(203, 1, '/tmp/other/.data'),
      { ...service(204, 1, 'gateway'), argv: ['node', '/elsewhere/apps/gateway/dist/main.bundle.js'] },
      { pid: 205, ppid: 1, argv: ['node', 'apps/gateway/dist/main.bundle.js'], env: [`DATA_DIR=${dataDir}`] },
    ];
    expect(leftoverProcesses({ root, dataDir, services, processes })).toEqual([]);
  });
});

describe('reading processes from /proc', () => {
  it('reads the parent from a stat line whose command name holds spaces and parentheses', () => {
    const proc = mkdtempSync(join(tmpdir(), 'sb-proc-'));
    try {
      mkdirSync(join(proc, '42'));
      writeFileSync(join(proc, '42', 'stat'), '42 (node (a) b) S 7 42 42 0 -1 4194560');
      writeFileSync(join(proc, '42', 'cmdline'), 'node\0apps/x/dist/main.js\0');
      writeFileSync(join(proc, '42', 'environ'), 'DATA_DIR=/d\0HOME=/root\0');
      mkdirSync(join(proc, 'self'));
      expect(readProcesses(proc)).toEqual([
        { pid: 42, ppid: 7, argv: ['node', 'apps/x/dist/main.js'], env: ['DATA_DIR=/d', 'HOME=/root'] },
      ]);
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });

  it('finds a real process, and stopProcesses ends it (SIGKILL after the grace when it ignores SIGTERM)', async () => {
    const child = spawn(
      process.execPath,
      ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('ignoring SIGTERM')"],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    // Its handler in place before the signal (a fixed wait lost that race on a busy machine).
    await new Promise((ready) => child.stdout.once('data', ready));
    expect(readProcesses().find((found) => found.pid === child.pid)?.ppid).toBe(process.pid);
    const exited = new Promise((done) => child.once('exit', (_code, signal) => done(signal)));
    await stopProcesses([{ pid: child.pid!, name: 'stubborn' }], 500);
    await expect(exited).resolves.toBe('SIGKILL');
  });
});
