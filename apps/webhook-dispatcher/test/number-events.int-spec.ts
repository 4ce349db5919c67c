import { randomBytes, randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import {
  NumberReleasedEvent,
  NumberUpdatedEvent,
  type EventDescriptor,
  type EventEnvelope,
  type NumberStateChanged,
} from '@switchboard/contracts';
import { ensureStream, eventSubject } from '@switchboard/messaging';
import { messagingConfigFromEnv } from '@switchboard/service-runtime';
import { verify } from '@switchboard/signing';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { createDispatcherHarness, type DispatcherHarness } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

const ACCOUNT = 'acct_0123456789abcdefghij';

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness;
let receiver: TestReceiver;

beforeAll(async () => {
  database = await createTestDatabase('webhook-dispatcher');
  certificate = selfSignedCertificate();
  harness = await createDispatcherHarness(database, {
    WEBHOOK_TEST_CA_FILE: certificate.certFile,
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
  });
  await ensureStream(harness.nc, messagingConfigFromEnv(harness.env), NumberUpdatedEvent.stream);
  receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
  await harness.startDispatcher();
});

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
  await database?.drop();
  certificate?.remove();
});

function state(numberId: string, status: NumberStateChanged['status'], version: number): NumberStateChanged {
  return {
    number_id: numberId,
    account_id: ACCOUNT,
    phone_number: '+14155550100',
    business_phone: '+14155550123',
    status,
    webhook_url: receiver.url(),
    answering: status === 'active',
    version: String(version),
    changed_at: new Date().toISOString(),
  };
}

async function publish(
  event: EventDescriptor<NumberStateChanged>,
  data: NumberStateChanged,
): Promise<EventEnvelope<NumberStateChanged>> {
  const envelope = {
    id: randomUUID(),
    type: event.type,
    occurred_at: data.changed_at,
    correlation_id: randomUUID(),
    causation_id: null,
    data,
  };
  await jetstream(harness.nc).publish(
    eventSubject(messagingConfigFromEnv(harness.env), event.type),
    JSON.stringify(envelope),
    { msgID: envelope.id },
  );
  return envelope;
}

const typesReceived = () =>
  receiver.requests.map((request) => JSON.parse(request.rawBody.toString()) as { type: string; number_id: string });

describe('number.past_due and number.released webhooks', () => {
  it('tells the change into past_due once, and the release, signed like every event', async () => {
    const numberId = 'num_7001';
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    await harness.numbersBilling.setTarget(numberId, { webhook_url: receiver.url(), webhook_secret: secret });

    await publish(NumberUpdatedEvent, state(numberId, 'active', 2)); // a detail changed: no webhook
    const pastDue = await publish(NumberUpdatedEvent, state(numberId, 'past_due', 3));
    await receiver.received(1);
    await publish(NumberUpdatedEvent, state(numberId, 'past_due', 4)); // a past_due number's details changed: not told again
    await publish(NumberUpdatedEvent, state(numberId, 'active', 1)); // late and older: ignored
    const released = await publish(NumberReleasedEvent, state(numberId, 'released', 5));
    await receiver.received(2);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(typesReceived()).toEqual([
      {
        type: 'number.past_due',
        number_id: numberId,
        occurred_at: pastDue.data.changed_at,
        number: { phone_number: '+14155550100', status: 'past_due' },
      },
      {
        type: 'number.released',
        number_id: numberId,
        occurred_at: released.data.changed_at,
        number: { phone_number: '+14155550100', status: 'released' },
      },
    ]);
    expect(receiver.requests.map((request) => request.headers['x-switchboard-event-id'])).toEqual([
      pastDue.id,
      released.id,
    ]);
    for (const request of receiver.requests) {
      expect(
        verify({
          secret,
          rawBody: request.rawBody,
          timestampHeader: request.headers['x-switchboard-timestamp'],
          signatureHeader: request.headers['x-switchboard-signature'],
        }),
      ).toMatchObject({ valid: true });
    }
  });
});
