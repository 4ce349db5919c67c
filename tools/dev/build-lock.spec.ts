import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLockPath, withBuildLockSync } from './build-lock.mjs';

const lockModule = join(__dirname, 'build-lock.mjs');

// Each test starts node processes (about 0.3 s each on an idle machine, seconds on a CI machine running the suite).
jest.setTimeout(30_000);

/**
 * A node process that takes the lock over `root`, writes "start <tag>", waits `holdMs`, writes "end <tag>", and
 * (with `nested`) has a child of its own take the same lock meanwhile.
 */
function builder(root: string, log: string, tag: string, holdMs: number, nested = false) {
  const script = `
    const { appendFileSync } = require('node:fs');
    const { spawnSync } = require('node:child_process');
    import(${JSON.stringify(lockModule)}).then(({ withBuildLockSync }) => {
      withBuildLockSync(() => {
        appendFileSync(${JSON.stringify(log)}, 'start ${tag}\\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
        if (${nested}) {
          const child = spawnSync(process.execPath, ['-e', process.argv[1]], {
            env: { ...process.env, NESTED: '1' }, timeout: 10000,
          });
          appendFileSync(${JSON.stringify(log)}, 'nested ' + child.status + '\\n');
        }
        appendFileSync(${JSON.stringify(log)}, 'end ${tag}\\n');
      }, { root: ${JSON.stringify(root)}, say: () => undefined });
    });`;
  // The nested child runs the lock alone, without the outer script's nesting: a marker decides.
  const nestedScript = `
    import(${JSON.stringify(lockModule)}).then(({ withBuildLockSync }) =>
      withBuildLockSync(() => undefined, { root: ${JSON.stringify(root)}, say: () => undefined }));`;
  return spawn(process.execPath, ['-e', script, nestedScript]);
}

const exited = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('build lock', () => {
  let root: string;
  let log: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sb-build-lock-'));
    log = join(root, 'log');
    writeFileSync(log, '');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lets one process build at a time: three builders never overlap', async () => {
    const builders = ['a', 'b', 'c'].map((tag) => builder(root, log, tag, 300));
    expect(await Promise.all(builders.map(exited))).toEqual([0, 0, 0]);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(6);
    for (let i = 0; i < lines.length; i += 2) {
      const tag = lines[i].replace('start ', '');
      expect([lines[i], lines[i + 1]]).toEqual([`start ${tag}`, `end ${tag}`]);
    }
    expect(existsSync(buildLockPath(root))).toBe(false);
  });

  it('takes over a lock whose owner is gone (killed mid-build)', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid;
    mkdirSync(buildLockPath(root), { recursive: true });
    writeFileSync(join(buildLockPath(root), 'pid'), String(dead));
    const started = Date.now();
    expect(withBuildLockSync(() => 'built', { root, say: () => undefined })).toBe('built');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('lets a process started by the holder build under its lock instead of waiting forever', async () => {
    const outer = builder(root, log, 'outer', 50, true);
    expect(await exited(outer)).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('start outer\nnested 0\nend outer\n');
  });

  it('says once that it waits, and frees the lock when the build throws', async () => {
    const holder = builder(root, log, 'first', 800);
    while (!readFileSync(log, 'utf8').includes('start first')) await new Promise((r) => setTimeout(r, 20));
    // The waiter is a process of its own too, as every user of the lock is (npm start, sdk:pack, the tests' builds).
    const waiter = spawnSync(
      process.execPath,
      [
        '-e',
        `import(${JSON.stringify(lockModule)}).then(async ({ withBuildLock }) => {
          const said = [];
          const threw = await withBuildLock(async () => { throw new Error('tsc failed'); },
            { root: ${JSON.stringify(root)}, say: (message) => said.push(message) }).catch((error) => error.message);
          console.log(JSON.stringify({ said, threw }));
        });`,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(JSON.parse(waiter.stdout)).toEqual({
      said: [`waiting for another build of this checkout to finish (pid ${holder.pid})`],
      threw: 'tsc failed',
    });
    expect(readFileSync(log, 'utf8')).toContain('end first');
    expect(existsSync(buildLockPath(root))).toBe(false);
    await exited(holder);
  });
});
