import { EventEmitter } from 'node:events';
import { firstOutput, running, stopProcess } from './processes.mjs';

/** A child process that exits on the signals in `obeys` (as a real one ends on SIGTERM or SIGKILL). */
function child(obeys: string[]) {
  const fake = Object.assign(new EventEmitter(), {
    stdout: new EventEmitter(),
    exitCode: null as number | null,
    signalCode: null as string | null,
    signals: [] as string[],
    kill(signal: string) {
      fake.signals.push(signal);
      if (obeys.includes(signal)) setImmediate(() => ((fake.signalCode = signal), fake.emit('exit', null, signal)));
      return true;
    },
  });
  return fake;
}

describe('child processes', () => {
  it("read a server's first output, its port, and fail when it exits before", async () => {
    const server = child([]);
    const port = firstOutput(server, 'api-floor.mjs');
    server.stdout.emit('data', Buffer.from('41234\n'));
    await expect(port).resolves.toBe('41234');
    const broken = child([]);
    const never = firstOutput(broken, 'api-floor.mjs');
    broken.emit('exit', 1);
    await expect(never).rejects.toThrow('api-floor.mjs exited (1)');
  });

  it('stop with the signal asked for, or with SIGKILL after the grace period', async () => {
    const polite = child(['SIGTERM', 'SIGKILL']);
    await stopProcess(polite, 'SIGTERM', 1000);
    expect(polite.signals).toEqual(['SIGTERM']);
    const stubborn = child(['SIGKILL']);
    await stopProcess(stubborn, 'SIGTERM', 20);
    expect(stubborn.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(running(stubborn)).toBe(false);
    await stopProcess(stubborn, 'SIGTERM', 20); // gone already: nothing sent
    expect(stubborn.signals).toHaveLength(2);
  });
});
