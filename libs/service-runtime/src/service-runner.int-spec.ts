import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { TS_REGISTER } from '@switchboard/testing';
import { freePort } from '../../../tools/dev/free-port.mjs';

const fixture = join(__dirname, '..', 'test', 'service-runner-process.ts');

async function runUntilStarted(port: number) {
  const child = spawn(process.execPath, ['-r', TS_REGISTER, fixture], {
    env: { ...process.env, HEALTH_PORT: String(port), OTEL_SDK_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
      if (stderr.includes('"msg":"probe started"')) resolve();
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`exited before it started (${code ?? signal}):\n${stderr}`)),
    );
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe('runService', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s runs the shutdown hooks, closes the health port and exits 0',
    async (signal) => {
      const port = await freePort();
      const service = await runUntilStarted(port);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      service.child.kill(signal);

      // Exit code 0, not death by the signal: the process ended through runService's own exit, after everything closed.
      await expect(service.exited).resolves.toEqual({ code: 0, signal: null });
      expect(service.output().stdout).toContain('closed');
      expect(service.output().stderr).toContain('"msg":"probe stopping"');
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    },
    30_000,
  );
});
