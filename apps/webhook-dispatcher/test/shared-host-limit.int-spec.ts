import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { callCompletedEvent } from './factories/call-completed.factory';
import { createDispatcherHarness, type DispatcherHarness } from './support/dispatcher-harness';
import { startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

const SECRET = 'whsec_shared_limit_5b1e0c';

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness;
let receiver: TestReceiver;

beforeAll(async () => {
  database = await createTestDatabase('webhook-dispatcher');
  certificate = selfSignedCertificate();
});

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
  await database?.drop();
  certificate?.remove();
});

describe('the per-host cap across replicas', () => {
  it('holds for two dispatchers sending to one slow host: never more than WEBHOOK_HOST_CONCURRENCY on the wire', async () => {
    harness = await createDispatcherHarness(database, {
      WEBHOOK_TEST_CA_FILE: certificate.certFile,
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
      // Each dispatcher pulls 2 events at a time and may send 2 to a host: alone, each would fill the cap.
      WEBHOOK_CONCURRENCY: '2',
      WEBHOOK_HOST_CONCURRENCY: '2',
      WEBHOOK_TIMEOUT_MS: '8000',
    });
    let inFlight = 0;
    let most = 0;
    const held: (() => void)[] = [];
    receiver = await startHttpsReceiver(certificate, {
      handler: (req, res) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        req.resume();
        held.push(() => {
          inFlight -= 1;
          res.writeHead(200).end();
        });
      },
    });
    await harness.startDispatcher();
    await harness.startDispatcher();
    const events = Array.from({ length: 8 }, (_, i) => callCompletedEvent({ number_id: `num_${800 + i}` }));
    for (const event of events) {
      await harness.numbersBilling.setTarget(event.data.number_id, {
        webhook_url: receiver.url(),
        webhook_secret: SECRET,
      });
      await harness.publish(event);
    }

    await receiver.received(2);
    // Both dispatchers have events in hand and host slots of their own; the shared cap keeps the others waiting.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(inFlight).toBe(2);

    // The receiver answers whatever it holds, as it comes: every event is delivered, never more than 2 at once.
    const drain = setInterval(() => held.splice(0).forEach((answer) => answer()), 200);
    try {
      await harness.eventually(async () => {
        for (const event of events) if ((await harness.delivery(event.id))?.status !== 'delivered') return false;
        return true;
      }, 40_000);
    } finally {
      clearInterval(drain);
    }
    expect(most).toBe(2);
    expect(receiver.requests).toHaveLength(8);
  });
});
