import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, TS_REGISTER, type TestDatabase } from '@switchboard/testing';
import { callCompletedEvent } from './factories/call-completed.factory';
import { createDispatcherHarness, type DispatcherHarness } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';
import { INTERRUPTED } from '../src/deliveries/delivery-store.port';

jest.setTimeout(90_000);

const SECRET = 'whsec_crash_2e6b90f1c3a84d57b9e0';
const support = join(__dirname, 'support');

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness;
let receiver: TestReceiver | undefined;
let child: ChildProcess | undefined;
let numberSeq = 300;

beforeAll(async () => {
  database = await createTestDatabase('webhook-dispatcher');
  certificate = selfSignedCertificate();
});

afterAll(async () => {
  await database?.drop();
  certificate?.remove();
});

beforeEach(async () => {
  harness = await createDispatcherHarness(database, {
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    WEBHOOK_TIMEOUT_MS: '1500',
    WEBHOOK_TEST_CA_FILE: certificate.certFile,
  });
});

afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await harness?.close();
  await receiver?.close();
  receiver = undefined;
});

async function sendCall(url: string) {
  const numberId = `num_${(numberSeq += 1)}`;
  await harness.numbersBilling.setTarget(numberId, { webhook_url: url, webhook_secret: SECRET });
  const event = callCompletedEvent({ number_id: numberId });
  await harness.publish(event);
  return { event, numberId };
}

/** Starts a dispatcher in a process of its own, trusting the receiver through NODE_EXTRA_CA_CERTS as a deployed one would. */
function startDispatcherProcess(): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...harness.env, NODE_EXTRA_CA_CERTS: certificate.certFile };
  delete env.WEBHOOK_TEST_CA_FILE;
  const proc = spawn(process.execPath, ['-r', TS_REGISTER, join(support, 'dispatcher-process.ts')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  proc.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    proc.once('message', () => resolve(proc));
    proc.once('exit', (code, signal) =>
      reject(new Error(`the dispatcher process exited before it was ready (${code ?? signal}):\n${stderr}`)),
    );
  });
}

describe('a dispatcher that stops during a delivery', () => {
  it('finishes the attempt on the wire when stopped cleanly, and a new instance delivers the event', async () => {
    receiver = await startHttpsReceiver(certificate, answers('hang', { status: 200 }));
    const first = await harness.startDispatcher();
    const { event, numberId } = await sendCall(receiver.url());
    await receiver.received(1);

    await harness.stopDispatcher(first); // as on SIGTERM: waits for the attempt, which times out
    await harness.startDispatcher();

    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');
    expect(receiver.requests.map((r) => r.headers['x-switchboard-event-id'])).toEqual([event.id, event.id]);
    expect((await harness.deliveryLog(numberId)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [2, 200, null],
      [1, null, 'timed out after 1500 ms'],
    ]);
  });

  it('loses nothing when the process is killed (SIGKILL) mid-delivery: a new instance sends the event again', async () => {
    receiver = await startHttpsReceiver(certificate, answers('hang', { status: 200 }));
    child = await startDispatcherProcess();
    const { event, numberId } = await sendCall(receiver.url());
    await receiver.received(1);

    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    // What the killed process left: a pending delivery and an attempt that never got its answer.
    expect(await harness.delivery(event.id)).toEqual({ status: 'pending', attempts: 0 });
    expect(await harness.attempts(event.id)).toEqual([{ attempt: 1, status_code: null, error: 'in progress' }]);

    await harness.startDispatcher();

    // JetStream hands the unacknowledged event out again once its ack wait (about 12.5 s here) is over.
    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered', 45_000);
    expect(receiver.requests.map((r) => r.headers['x-switchboard-event-id'])).toEqual([event.id, event.id]);
    expect((await harness.deliveryLog(numberId)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 200, null],
      [1, null, INTERRUPTED],
    ]);
    expect(await harness.delivery(event.id)).toEqual({ status: 'delivered', attempts: 1 });
  });
});
