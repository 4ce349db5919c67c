import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ServiceName } from '@switchboard/contracts';
import type { MessagingConfig } from '@switchboard/messaging';
import { describeFailure } from './describe-failure.ts';
import { pingNats } from './services.ts';
import { TS_REGISTER } from './ts-register.ts';

/**
 * The tests' NATS: a nats-server of the run's own, started by the global setup, with the same users and grants as
 * `npm start` and the deployments (libs/messaging/src/bus-permissions.ts) for any subject prefix. Each service under
 * test connects as its own user, so a grant missing from the definition fails a test; test code that plays another
 * party or inspects streams connects as the superuser, which exists only here.
 */
export const TEST_SUPERUSER = 'test-superuser';

/** Where the global setup leaves the server's address and passwords for the test workers (inherited env). */
const STATE_VARIABLE = 'SB_TEST_NATS';

interface TestNatsState {
  /** `nats://127.0.0.1:<port>`, without credentials. */
  url: string;
  /** Password by user: each service's, and the superuser's. */
  passwords: Record<string, string>;
}

function state(env: NodeJS.ProcessEnv = process.env): TestNatsState {
  const raw = env[STATE_VARIABLE];
  if (!raw) {
    throw new Error(
      `${STATE_VARIABLE} is not set: the tests' nats-server is started by the integration and e2e global setup (libs/testing/src/global-setup.ts)`,
    );
  }
  return JSON.parse(raw) as TestNatsState;
}

/** The tests' NATS server, without credentials (an anonymous client is refused there). */
export function testNatsUrl(): string {
  return state().url;
}

type TestNatsUser = ServiceName | typeof TEST_SUPERUSER;

/**
 * The variables that make a service under test connect as its own NATS user (or, for tests of the messaging
 * library's own mechanics on subjects no service has, as the superuser).
 */
export function testNatsEnv(user: TestNatsUser): { NATS_URL: string; NATS_USER: string; NATS_PASSWORD: string } {
  const { url, passwords } = state();
  return { NATS_URL: url, NATS_USER: user, NATS_PASSWORD: passwords[user] };
}

/** A `MessagingConfig` on the test run's nats-server as `user` (libs/messaging's own tests, which read no environment). */
export function testMessagingConfig(
  user: TestNatsUser,
  options: { prefix?: string; requestTimeoutMs?: number } = {},
): MessagingConfig {
  const { url, passwords } = state();
  return {
    natsUrl: url,
    prefix: options.prefix ?? 'sb',
    requestTimeoutMs: options.requestTimeoutMs ?? 5000,
    credentials: { user, password: passwords[user] },
  };
}

/** Options for `connect()`: the superuser by default (test code that is no service), or one service's user. */
export function testNatsOptions(user: TestNatsUser = TEST_SUPERUSER): { servers: string; user: string; pass: string } {
  const { url, passwords } = state();
  return { servers: url, user, pass: passwords[user] };
}

/** The nats-server command (PATH, then the usual install places), for the tests that run a server of their own. */
export function findNatsServer(): string {
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/bin', '/usr/bin']);
  const found = dirs
    .filter(Boolean)
    .map((dir) => join(dir, 'nats-server'))
    .find((file) => existsSync(file));
  if (!found)
    throw new Error(
      'nats-server is not installed (Debian/Ubuntu: apt-get install nats-server; macOS: brew install nats-server)',
    );
  return found;
}

/** A loopback TCP port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningTestNats {
  stop(): Promise<void>;
}

/**
 * Starts the tests' nats-server (JetStream in a temporary store, a free port) and publishes its address and
 * passwords to this process's environment, which Jest's workers inherit. Idempotent within one process: Jest runs
 * the global setup of each project (integration, e2e) and they share one server.
 */
export async function startTestNats(): Promise<RunningTestNats | undefined> {
  if (process.env[STATE_VARIABLE]) return undefined;
  const binary = findNatsServer();
  const dir = await mkdtemp(join(tmpdir(), 'sb-test-nats-'));
  const port = await freePort();
  const configFile = join(dir, 'nats-server.conf');
  const script = join(__dirname, '..', 'src', 'test-nats-config.ts');
  const written = await promisify(execFile)(process.execPath, [
    '-r',
    TS_REGISTER,
    script,
    configFile,
    `127.0.0.1:${port}`,
    join(dir, 'store'),
  ]);
  const passwords = JSON.parse(written.stdout) as Record<string, string>;
  // Through a shell that stops the server when its stdin closes: at stop(), and also when Jest itself is killed
  // (no global teardown then), so an interrupted run leaves no nats-server behind on the machine.
  // (A background job's stdin is /dev/null, so the watcher reads the pipe through fd 3.)
  const supervised = 'exec 3<&0; "$0" -c "$1" & server=$!; (read _ <&3; kill $server) & wait $server';
  const server: ChildProcess = spawn('/bin/sh', ['-c', supervised, binary, configFile], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let log = '';
  server.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const url = `nats://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.stdin?.end();
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await pingNats(url, 500);
      break;
    } catch (error) {
      if (server.exitCode !== null || attempt >= 50) {
        await stop();
        throw new Error(
          `the tests' nats-server (${binary} -c ${configFile}) did not start: ${describeFailure(error)}\n${log}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  process.env[STATE_VARIABLE] = JSON.stringify({ url, passwords } satisfies TestNatsState);
  // Code under test that reads NATS_URL itself reaches this server too, and is refused unless it brings a user.
  process.env.NATS_URL = url;
  return { stop };
}
