import { Writable } from 'node:stream';
import type { Resolver } from '@switchboard/egress';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import pino from 'pino';
import { callCompletedEvent } from './factories/call-completed.factory';
import { createDispatcherHarness, type DispatcherHarness } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

const SECRET = 'whsec_ssrf_5b0e7c2a91d84f36a0c2';
/** A name the system resolver cannot resolve (.test is reserved): only the injected resolver knows it. */
const PINNED_NAME = 'receiver.switchboard.test';

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness | undefined;
let receiver: TestReceiver;
let numberSeq = 200;

beforeAll(async () => {
  database = await createTestDatabase('webhook-dispatcher');
  certificate = selfSignedCertificate([PINNED_NAME]);
  receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
});

afterAll(async () => {
  await receiver?.close();
  await database?.drop();
  certificate?.remove();
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  receiver.requests.length = 0;
});

async function setup(env: Record<string, string>, options: { resolver?: Resolver; logs?: string[] } = {}) {
  harness = await createDispatcherHarness(database, { WEBHOOK_TEST_CA_FILE: certificate.certFile, ...env });
  const logger = options.logs
    ? pino({ level: 'info' }, new Writable({ write: (chunk, _e, done) => (options.logs!.push(String(chunk)), done()) }))
    : undefined;
  await harness.startDispatcher({ resolver: options.resolver, logger });
  return harness;
}

async function sendCall(h: DispatcherHarness, url: string) {
  const numberId = `num_${(numberSeq += 1)}`;
  await h.numbersBilling.setTarget(numberId, { webhook_url: url, webhook_secret: SECRET });
  const event = callCompletedEvent({ number_id: numberId });
  await h.publish(event);
  return { event, numberId };
}

describe('send-time egress check', () => {
  it('refuses a host name that resolves to 127.0.0.1, logs why, and does not retry', async () => {
    const h = await setup({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '' });
    const { event, numberId } = await sendCall(h, receiver.url('/hook', 'localhost'));

    await h.eventually(async () => (await h.delivery(event.id))?.status === 'refused');
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(receiver.requests).toHaveLength(0);
    const log = await h.deliveryLog(numberId);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      attempt: 1,
      status_code: null,
      error: expect.stringMatching(/^refused: the host localhost is not public \(loopback address\)/),
    });
  });

  it('refuses an IP-literal private URL the same way', async () => {
    const h = await setup({});
    const { event } = await sendCall(h, receiver.url('/hook', '127.0.0.1'));

    await h.eventually(async () => (await h.delivery(event.id))?.status === 'refused');
    expect(receiver.requests).toHaveLength(0);
  });

  it('delivers to such a host once it is listed in WEBHOOK_ALLOWED_PRIVATE_HOSTS, and warns at start', async () => {
    const logs: string[] = [];
    const h = await setup({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost' }, { logs });
    const { event } = await sendCall(h, receiver.url('/hook', 'localhost'));

    await h.eventually(async () => (await h.delivery(event.id))?.status === 'delivered');
    expect(receiver.requests).toHaveLength(1);
    const warning = logs
      .map((line) => JSON.parse(line) as { level: number; msg: string; hosts?: string[] })
      .find((line) => line.msg.startsWith('WEBHOOK_ALLOWED_PRIVATE_HOSTS is set'));
    expect(warning).toMatchObject({ level: 40, hosts: ['localhost'] });
  });

  it('connects to the address it checked, sending the name as Host and TLS server name, without asking DNS again', async () => {
    const asked: string[] = [];
    const resolver: Resolver = async (host) => {
      asked.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const h = await setup({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: PINNED_NAME }, { resolver });
    const { event } = await sendCall(h, receiver.url('/hook', PINNED_NAME));

    await h.eventually(async () => (await h.delivery(event.id))?.status === 'delivered');
    // The system resolver does not know the name, so the connection can only have gone to the checked address.
    expect(asked).toEqual([PINNED_NAME]);
    expect(receiver.requests[0].headers.host).toBe(`${PINNED_NAME}:${receiver.port}`);
    expect(receiver.requests[0].servername).toBe(PINNED_NAME);
  });

  it('refuses a name whose DNS answer is private when it is not allowed', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const h = await setup({}, { resolver });
    const { event, numberId } = await sendCall(h, receiver.url('/hook', PINNED_NAME));

    await h.eventually(async () => (await h.delivery(event.id))?.status === 'refused');
    expect(receiver.requests).toHaveLength(0);
    expect((await h.deliveryLog(numberId))[0].error).toBe(
      `refused: the host ${PINNED_NAME} is not public (loopback address)`,
    );
  });
});
