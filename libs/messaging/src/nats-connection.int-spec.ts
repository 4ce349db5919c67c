import { spawn, type ChildProcess } from 'node:child_process';
import type { NatsConnection } from '@nats-io/transport-node';
import { findNatsServer, testMessagingConfig } from '@switchboard/testing';
import pino from 'pino';
import { connectNats } from './nats-connection';

/** A logger that keeps what was warned. */
function recordingLogger(): { logger: pino.Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => void warnings.push(JSON.parse(line).msg as string) },
  );
  return { logger, warnings };
}

/** An open nats-server (no users at all) on a random port, as an unlocked deployment would run. */
async function openNatsServer(): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(findNatsServer(), ['-a', '127.0.0.1', '-p', '-1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const port = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      if (port) resolve(`nats://127.0.0.1:${port}`);
    });
    child.once('exit', (code) => reject(new Error(`nats-server exited (${code}): ${log}`)));
  });
  return { url, process: child };
}

describe('connecting to NATS', () => {
  const connections: NatsConnection[] = [];
  let open: { url: string; process: ChildProcess } | undefined;
  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
    open?.process.kill('SIGTERM');
  });

  it('warns when the server admits clients without credentials: the bus is not locked', async () => {
    open = await openNatsServer();
    const { logger, warnings } = recordingLogger();
    connections.push(
      await connectNats({ natsUrl: open.url, prefix: 'sb', requestTimeoutMs: 5000 }, 'lostfound', logger),
    );
    expect(warnings).toEqual([expect.stringContaining('NATS admits clients without credentials')]);
  });

  it("says nothing on a locked server, connecting as the service's own user", async () => {
    const { logger, warnings } = recordingLogger();
    const nc = await connectNats(testMessagingConfig('lostfound'), 'lostfound', logger);
    connections.push(nc);
    expect(nc.info?.auth_required).toBe(true);
    expect(warnings).toEqual([]);
  });
});
