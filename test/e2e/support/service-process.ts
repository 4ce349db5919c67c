import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TS_REGISTER } from '@switchboard/testing';

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * A service run as a real process (`node -r TS_REGISTER apps/<app>/src/main.ts`), for tests that must kill it
 * (SIGKILL cannot be simulated inside Jest's process), or from the bundle a release runs
 * (`apps/<app>/dist/main.bundle.js`, ADR 0099), for the test of the bundles. Its JSON log lines are collected as
 * they come.
 */
export class ServiceProcess {
  readonly logs: LogLine[] = [];
  private stderr = '';

  private constructor(readonly proc: ChildProcess) {}

  /** Starts `app` (from its sources, or from its built bundle) and resolves once it logged `<app> started`. */
  static async start(
    app: string,
    env: NodeJS.ProcessEnv,
    { from = 'source' }: { from?: 'source' | 'bundle' } = {},
  ): Promise<ServiceProcess> {
    const appDir = join(__dirname, '..', '..', '..', 'apps', app);
    const args =
      from === 'bundle'
        ? [join(appDir, 'dist', 'main.bundle.js')]
        : ['-r', TS_REGISTER, join(appDir, 'src', 'main.ts')];
    const proc = spawn(process.execPath, args, {
      env: { ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(proc);
    proc.stderr.on('data', (chunk) => (service.stderr += String(chunk)));
    let pending = '';
    proc.stdout.on('data', (chunk) => {
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.startsWith('{')) service.logs.push(JSON.parse(line) as LogLine);
    });
    try {
      await service.logged(`${app} started`, 60_000);
    } catch (error) {
      // Not started in time: the caller never gets it to stop, so it must not outlive the test.
      await service.stop('SIGKILL');
      throw error;
    }
    return service;
  }

  /** Resolves with the first log line containing `text`; rejects after `timeoutMs` or when the process exits. */
  async logged(text: string, timeoutMs = 15_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.logs.find((entry) => entry.msg.includes(text));
      if (line) return line;
      if (this.proc.exitCode !== null || this.proc.signalCode !== null)
        throw new Error(`the process exited before logging "${text}":\n${this.stderr}`);
      if (Date.now() > deadline)
        throw new Error(
          `no log line "${text}" within ${timeoutMs} ms; got:\n${this.logs.map((l) => l.msg).join('\n')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends `signal` and waits for the process to end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((resolve) => this.proc.once('exit', resolve));
    this.proc.kill(signal);
    await exited;
  }
}
