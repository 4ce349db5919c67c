import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, findNatsServer, TS_REGISTER, type TestDatabase } from '@switchboard/testing';
// Below the ephemeral range: the test restarts NATS on this port, and an outgoing connection could take it meanwhile.
import { freePort } from '../../../../tools/dev/free-port.mjs';

jest.setTimeout(90_000);

const ADMIN_TOKEN = 'nats-outage-admin-token-0123456789';

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * Issue 22: a gateway started while NATS is down listens at once, says so once in its log, answers 503
 * `service_unavailable` with Retry-After where NATS is needed, and reports the NATS client's real state on
 * /readyz (`connecting`, `reconnecting` are not ok), through a NATS server of its own that the test starts,
 * kills and starts again.
 */
describe('a gateway whose NATS is down', () => {
  let database: TestDatabase;
  let storeDir: string;
  let natsPort: number;
  let nats: ChildProcess | undefined;
  let gateway: ChildProcess | undefined;
  const logs: LogLine[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('gateway');
    storeDir = await mkdtemp(join(tmpdir(), 'sb-nats-outage-'));
    natsPort = await freePort();
  });
  afterAll(async () => {
    if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
    await stopNats();
    await database?.drop();
    await rm(storeDir, { recursive: true, force: true });
  });

  function startNats(): Promise<void> {
    nats = spawn(findNatsServer(), ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    return new Promise((resolve, reject) => {
      nats!.stderr!.on('data', (chunk) => {
        output += String(chunk);
        if (output.includes('Server is ready')) resolve();
      });
      nats!.once('exit', (code) => reject(new Error(`nats-server exited (${code}): ${output}`)));
    });
  }

  async function stopNats(): Promise<void> {
    const proc = nats;
    nats = undefined;
    if (!proc || proc.exitCode !== null) return;
    proc.kill('SIGKILL');
    await new Promise((resolve) => proc.once('exit', resolve));
  }

  function startGateway(): Promise<string> {
    gateway = spawn(process.execPath, ['-r', TS_REGISTER, join(__dirname, '..', 'main.ts')], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PORT: '0',
        ADMIN_PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_TOKEN,
        GATEWAY_DATABASE_URL: database.url,
        NATS_URL: `nats://127.0.0.1:${natsPort}`,
        NATS_SUBJECT_PREFIX: `natsout${process.pid}`,
        DATA_DIR: storeDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let pending = '';
    let stderr = '';
    gateway.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    return new Promise((resolve, reject) => {
      gateway!.stdout!.on('data', (chunk) => {
        pending += String(chunk);
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          if (!line.startsWith('{')) continue;
          const parsed = JSON.parse(line) as LogLine;
          logs.push(parsed);
          if (parsed.msg === 'gateway listening') resolve(String(parsed.public));
        }
      });
      gateway!.once('exit', (code, signal) =>
        reject(new Error(`the gateway exited before listening (${code ?? signal}):\n${stderr}`)),
      );
    });
  }

  const logged = (text: string) => logs.filter((line) => line.msg.includes(text));

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('listens at once, answers 503 with Retry-After and reports connecting, connected, reconnecting honestly', async () => {
    const base = await startGateway(); // NATS has not been started: the gateway listens all the same
    const adminBase = String(logs.find((line) => line.msg === 'gateway listening')!.admin);
    const ready = () => getJson(`${base}/readyz`);
    const createAccount = () =>
      getJson(`${adminBase}/admin/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: '{"name":"Acme"}',
      });

    const connecting = await ready();
    expect(connecting.status).toBe(503);
    expect(connecting.retryAfter).toBe('5');
    expect(connecting.body.checks.nats).toBe('connecting');
    const refused = await createAccount();
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('5');
    expect(refused.body).toEqual({
      error: { code: 'service_unavailable', message: expect.stringContaining('message bus is unreachable') },
    });
    for (const answer of await Promise.all([createAccount(), createAccount(), ready()]))
      expect(answer.status).toBe(503);

    await new Promise((resolve) => setTimeout(resolve, 2_000)); // several more connect attempts, none logged
    expect(logged('NATS unreachable')).toHaveLength(1);
    expect(logged('NATS unreachable')[0]).toMatchObject({ level: 'warn', nats_url: `nats://127.0.0.1:${natsPort}` });
    // Three refused requests, one outage: logged once, as a warning without a stack trace.
    expect(logged('a service or NATS unavailable')).toHaveLength(1);
    expect(logged('a service or NATS unavailable')[0]).toMatchObject({
      level: 'warn',
      reason: expect.stringContaining('message bus is unreachable'),
    });
    expect(logged('request failed')).toHaveLength(0);

    await startNats();
    const connected = await until(ready, (answer) => answer.body.checks.nats === 'ok');
    expect(connected.body.checks.nats).toBe('ok');
    expect(connected.body.checks['numbers-billing']).toBe('down'); // no service runs in this test
    expect(
      await until(
        async () => logged('NATS reachable: connected'),
        (lines) => lines.length > 0,
      ),
    ).toHaveLength(1);

    await stopNats();
    const lost = await until(ready, (answer) => answer.body.checks.nats === 'reconnecting');
    expect(lost.status).toBe(503);
    expect(lost.body.checks.nats).toBe('reconnecting');
    const refusedAgain = await createAccount();
    expect(refusedAgain.status).toBe(503);
    expect(refusedAgain.retryAfter).toBe('5');
    // The gateway's log comes through a pipe, which may trail its HTTP answers on a busy machine.
    expect(
      await until(
        async () => logged('NATS connection lost'),
        (lines) => lines.length > 0,
      ),
    ).toHaveLength(1);

    await startNats();
    const back = await until(ready, (answer) => answer.body.checks.nats === 'ok');
    expect(back.body.checks.nats).toBe('ok');
    expect(
      await until(
        async () => logged('NATS reconnected'),
        (lines) => lines.length > 0,
      ),
    ).toHaveLength(1);
    expect(logged('NATS unreachable')).toHaveLength(1);
  });
});

async function getJson(
  url: string,
  init: RequestInit = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON body as response.json() gives it
): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const response = await fetch(url, init);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}
