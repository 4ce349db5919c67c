import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { callCompletedEvent } from './factories/call-completed.factory';
import { createDispatcherHarness, type DispatcherHarness } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type Answer, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

const SECRET = 'whsec_iso_71d3a0c5e94b4f2a8c6d';

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness;
const receivers: TestReceiver[] = [];
let numberSeq = 400;

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
    WEBHOOK_TEST_CA_FILE: certificate.certFile,
    // Long enough that a held request stays held for the whole test.
    WEBHOOK_TIMEOUT_MS: '20000',
  });
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await harness?.close();
});

/** A receiver that holds every request until `open()`, then answers 200. */
async function gatedReceiver() {
  let open = false;
  const receiver = await startHttpsReceiver(certificate, { answer: (): Answer => (open ? { status: 200 } : 'hang') });
  receivers.push(receiver);
  return {
    receiver,
    open() {
      open = true;
      receiver.release(200);
    },
  };
}

async function sendCalls(url: string, count: number) {
  const numberId = `num_${(numberSeq += 1)}`;
  await harness.numbersBilling.setTarget(numberId, { webhook_url: url, webhook_secret: SECRET });
  const events = Array.from({ length: count }, () => callCompletedEvent({ number_id: numberId }));
  for (const event of events) await harness.publish(event);
  return events;
}

async function allDelivered(events: { id: string }[]): Promise<boolean> {
  for (const event of events) if ((await harness.delivery(event.id))?.status !== 'delivered') return false;
  return true;
}

describe('many receivers at once', () => {
  it('delivers to a healthy receiver while a slow one holds its requests', async () => {
    const slow = await gatedReceiver();
    const fast = await startHttpsReceiver(certificate, answers({ status: 200 }));
    receivers.push(fast);
    await harness.startDispatcher({ env: { WEBHOOK_CONCURRENCY: '4', WEBHOOK_HOST_CONCURRENCY: '2' } });

    const slowEvents = await sendCalls(slow.receiver.url(), 8);
    await slow.receiver.received(2);
    const fastEvents = await sendCalls(fast.url(), 3);

    await fast.received(3);
    await harness.eventually(() => allDelivered(fastEvents));
    // The slow receiver has answered nothing yet and holds no more than its share of the dispatcher.
    expect(slow.receiver.requests).toHaveLength(2);

    slow.open();
    await harness.eventually(() => allDelivered(slowEvents));
    expect(new Set(slow.receiver.requests.map((r) => r.headers['x-switchboard-event-id'])).size).toBe(8);
  });

  it('runs deliveries to different receivers concurrently, never more than WEBHOOK_CONCURRENCY at once', async () => {
    const gated = await Promise.all(Array.from({ length: 5 }, () => gatedReceiver()));
    await harness.startDispatcher({ env: { WEBHOOK_CONCURRENCY: '3' } });

    const events = (await Promise.all(gated.map((g) => sendCalls(g.receiver.url(), 1)))).flat();
    await harness.eventually(async () => gated.filter((g) => g.receiver.requests.length > 0).length === 3);
    // Give a fourth delivery every chance to start: it must not.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(gated.reduce((sum, g) => sum + g.receiver.requests.length, 0)).toBe(3);

    gated.forEach((g) => g.open());
    await harness.eventually(() => allDelivered(events));
  });
});
