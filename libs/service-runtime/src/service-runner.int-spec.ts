import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { TS_REGISTER } from '@switchboard/testing';
import { SERVICE_NODE_FLAGS, serviceEnvOf } from '../../../deploy/service-node-flags.mjs';
import { freePort } from '../../../tools/dev/free-port.mjs';

const fixture = join(__dirname, '..', 'test', 'service-runner-process.ts');

async function runUntilStarted(port: number, options: { nodeArgs?: string[]; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '-r', TS_REGISTER, fixture], {
    env: { ...process.env, HEALTH_PORT: String(port), OTEL_SDK_DISABLED: 'true', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
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

  it('gives the young generation back once the service has been idle for 10 s (ADR 0106)', async () => {
    // With the flags and environment a service other than the gateway runs with: 32 MiB semi-spaces, gc exposed for
    // the trim.
    const service = await runUntilStarted(await freePort(), {
      nodeArgs: SERVICE_NODE_FLAGS,
      env: { NODE_OPTIONS: serviceEnvOf('numbers-billing', process.env).NODE_OPTIONS, PROBE_ALLOCATE_MS: '1000' },
    });
    try {
      const deadline = Date.now() + 25_000;
      let trimmed: { young_generation_mib_before: number; young_generation_mib_after: number } | undefined;
      while (!trimmed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        trimmed = service
          .output()
          .stderr.split('\n')
          .filter((line) => line.includes('"msg":"idle: young generation trimmed"'))
          .map((line) => JSON.parse(line) as NonNullable<typeof trimmed>)[0];
      }
      expect(service.output().stderr).toContain('"msg":"probe allocated"');
      // The burst grew both semi-spaces to their bound; one scavenge while idle gave all but a page or two back.
      expect(trimmed?.young_generation_mib_before).toBeGreaterThanOrEqual(32);
      expect(trimmed?.young_generation_mib_after).toBeLessThanOrEqual(8);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 40_000);
});
