import { spawn, type ChildProcess } from 'node:child_process';
import { DEFAULT_RESTART_POLICY, nextRestart, Supervisor } from './supervisor.mjs';

type RestartPolicy = { firstDelayMs: number; maxDelayMs: number; stableAfterMs: number; crashLoopAfter: number };

describe('the restart policy of npm start', () => {
  const policy = { firstDelayMs: 1000, maxDelayMs: 30_000, stableAfterMs: 60_000, crashLoopAfter: 5 };

  it('doubles the wait with each crash in a row, up to the cap', () => {
    const delays: number[] = [];
    let crashes = 0;
    for (let i = 0; i < 8; i++) {
      const next = nextRestart(policy, crashes, 2_000);
      crashes = next.crashes;
      delays.push(next.delayMs);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts again from the first delay after a service stayed up for the stable time', () => {
    expect(nextRestart(policy, 6, 60_000)).toEqual({ crashes: 1, delayMs: 1000, crashLoop: false });
    expect(nextRestart(policy, 6, 59_999)).toEqual({ crashes: 7, delayMs: 30_000, crashLoop: true });
  });

  it('calls it a crash loop from the fifth crash in a row', () => {
    expect(nextRestart(policy, 3, 100).crashLoop).toBe(false);
    expect(nextRestart(policy, 4, 100).crashLoop).toBe(true);
  });

  it('defaults to 1 s doubling to 30 s, reset after a minute up', () => {
    expect(DEFAULT_RESTART_POLICY).toEqual({
      firstDelayMs: 1000,
      maxDelayMs: 30_000,
      stableAfterMs: 60_000,
      crashLoopAfter: 5,
    });
  });
});

/** A stand-in service: says it is up, then runs until stopped (or does what `behaviour` adds). */
function standIn(name: string, behaviour = '') {
  return {
    name,
    command: process.execPath,
    args: ['-e', `console.log('up ' + process.pid); setInterval(() => {}, 1000); ${behaviour}`],
    options: {},
  };
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the supervisor of npm start, with stand-in services', () => {
  jest.setTimeout(15_000);
  let said: string[];
  let written: string[];
  let supervisor: Supervisor | undefined;
  const make = (
    services: ReturnType<typeof standIn>[],
    options: { policy?: RestartPolicy; stopGraceMs?: number } = {},
  ) => {
    supervisor = new Supervisor({
      services,
      say: (line: string) => void said.push(line),
      write: (line: string) => written.push(line) > 0,
      ...options,
    });
    return supervisor;
  };
  const upLines = (name: string) => written.filter((line) => line.startsWith(name) && line.includes('| up '));

  beforeEach(() => {
    said = [];
    written = [];
  });
  afterEach(async () => {
    await supervisor?.stop();
    supervisor = undefined;
  });

  it('restarts the one service that died, after the delay, leaves the others running, and says so', async () => {
    const sup = make([standIn('alpha'), standIn('beta'), standIn('gamma')], {
      policy: { ...DEFAULT_RESTART_POLICY, firstDelayMs: 100 },
    });
    sup.start();
    await waitFor('three services up', () => ['alpha', 'beta', 'gamma'].every((name) => upLines(name).length === 1));
    const before = { alpha: sup.pid('alpha')!, beta: sup.pid('beta')!, gamma: sup.pid('gamma')! };
    expect(written).toContain(`beta  | up ${before.beta}\n`);

    process.kill(before.beta, 'SIGKILL');
    await waitFor('beta up again', () => upLines('beta').length === 2);

    expect(said[0]).toMatch(
      /^beta exited \(SIGKILL\) after [\d.]+ s; restarting it in 0\.1 s \(restart 1 in a row\); the others keep running$/,
    );
    expect(said[1]).toBe(`beta restarted (pid ${sup.pid('beta')})`);
    expect(sup.pid('beta')).not.toBe(before.beta);
    expect([sup.pid('alpha'), sup.pid('gamma')]).toEqual([before.alpha, before.gamma]);
    expect(upLines('alpha')).toHaveLength(1);
  });

  it('stops every service on stop() without restarting any of them', async () => {
    const sup = make([standIn('alpha'), standIn('beta')], { policy: { ...DEFAULT_RESTART_POLICY, firstDelayMs: 10 } });
    sup.start();
    await waitFor('both up', () => upLines('alpha').length === 1 && upLines('beta').length === 1);
    const pids = [sup.pid('alpha')!, sup.pid('beta')!];

    await sup.stop();
    await new Promise((resolve) => setTimeout(resolve, 200)); // longer than the restart delay

    expect(pids.filter(alive)).toEqual([]);
    expect(said).toEqual([]);
    expect([sup.pid('alpha'), sup.pid('beta')]).toEqual([undefined, undefined]);
  });

  it('cancels a pending restart on stop() and kills a service that ignores SIGTERM after the grace period', async () => {
    const sup = make(
      [
        standIn('stubborn', "process.on('SIGTERM', () => console.log('ignoring SIGTERM'));"),
        standIn('crasher', 'setTimeout(() => process.exit(3), 50);'),
      ],
      {
        policy: { ...DEFAULT_RESTART_POLICY, firstDelayMs: 5000 },
        stopGraceMs: 300,
      },
    );
    sup.start();
    await waitFor('the crash', () => said.length === 1 && upLines('stubborn').length === 1);
    expect(said[0]).toMatch(/^crasher exited \(exit 3\) after [\d.]+ s; restarting it in 5 s/);
    const stubborn = sup.pid('stubborn')!;

    const started = Date.now();
    await sup.stop();

    expect(Date.now() - started).toBeLessThan(3000);
    expect(said.slice(1)).toEqual([
      'crasher: restart cancelled (stopping)',
      'stubborn did not stop within 0.3 s; killing it',
    ]);
    expect(written).toContain('stubborn | ignoring SIGTERM\n');
    expect(alive(stubborn)).toBe(false);
    expect(upLines('crasher')).toHaveLength(1);
  });

  it('backs off a service that keeps crashing, up to the cap, and says it is crash-looping', async () => {
    make([standIn('crasher', 'process.exit(1);')], {
      policy: { firstDelayMs: 20, maxDelayMs: 80, stableAfterMs: 10_000, crashLoopAfter: 4 },
    }).start();
    await waitFor(
      'five crashes',
      () =>
        said.filter((line) => line.startsWith('crasher exited') || line.startsWith('crasher is crash-looping'))
          .length >= 5,
    );

    const crashes = said.filter((line) => !line.includes('restarted'));
    expect(crashes.map((line) => /restarting it in ([\d.]+ s)/i.exec(line)?.[1])).toEqual(
      ['0.02 s', '0.04 s', '0.08 s', '0.08 s', '0.08 s'].slice(0, crashes.length),
    );
    expect(crashes.slice(0, 3).every((line) => line.startsWith('crasher exited (exit 1)'))).toBe(true);
    expect(crashes[3]).toMatch(
      /^crasher is crash-looping: it exited 4 times in a row, each within 10 s of starting \(last: exit 1 after [\d.]+ s\); see its lines above\. Restarting it in 0\.08 s; Ctrl-C stops everything\.$/,
    );
  });

  it('restarts a service whose leftover child still holds its output open', async () => {
    // The stand-in starts a grandchild that inherits its stdout and outlives it, then exits.
    const leaver = standIn(
      'leaver',
      "const g = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 8000)'], { stdio: 'inherit' }); console.log('grandchild ' + g.pid); setTimeout(() => process.exit(4), 100);",
    );
    make([leaver], { policy: { ...DEFAULT_RESTART_POLICY, firstDelayMs: 60_000 } }).start();
    try {
      await waitFor('the exit', () => said.length === 1, 4000);
      // Within the bounded wait for its output, and timed to its exit, not to that wait's end.
      expect(said[0]).toMatch(/^leaver exited \(exit 4\) after 0\.\d+ s; restarting it in 30 s/);
    } finally {
      for (const line of written) {
        const grandchild = /grandchild (\d+)/.exec(line)?.[1];
        if (grandchild) process.kill(Number(grandchild), 'SIGKILL');
      }
    }
  });

  it('supervises a server added later through its own spawn(): adopts the running one, restarts it, stops it with its signal', async () => {
    // A stand-in for npm start's PostgreSQL: started before it is supervised, its output its own, stopped by SIGINT
    // (PostgreSQL's fast shutdown), not the services' SIGTERM.
    let server: ChildProcess | undefined;
    const spawned: number[] = [];
    const serve = () => {
      if (server && server.exitCode === null && server.signalCode === null) return server;
      server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000);'], { stdio: 'ignore', detached: true });
      spawned.push(server.pid!);
      return server;
    };
    const first = serve();
    const sup = make([], { policy: { ...DEFAULT_RESTART_POLICY, firstDelayMs: 50 } });
    sup.add({ name: 'postgres', spawn: serve, stopSignal: 'SIGINT' });
    expect(sup.pid('postgres')).toBe(first.pid);

    process.kill(first.pid!, 'SIGKILL');
    await waitFor('the restart', () => said.length === 2);
    expect(said[0]).toMatch(
      /^postgres exited \(SIGKILL\) after [\d.]+ s; restarting it in 0\.05 s \(restart 1 in a row\)/,
    );
    expect(said[1]).toBe(`postgres restarted (pid ${spawned[1]})`);
    expect(sup.pid('postgres')).toBe(spawned[1]);

    const stoppedWith = new Promise((resolve) => server!.once('exit', (code, signal) => resolve(code ?? signal)));
    await sup.stop();
    await expect(stoppedWith).resolves.toBe('SIGINT');
    expect(spawned).toHaveLength(2);
    expect(written).toEqual([]);
  });
});
