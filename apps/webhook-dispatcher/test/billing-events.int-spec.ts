import { randomBytes, randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import {
  BalanceLowEvent,
  TopUpFailedEvent,
  type BalanceLowData,
  type EventEnvelope,
  type TopUpFailedData,
} from '@switchboard/contracts';
import { ensureStream, eventSubject } from '@switchboard/messaging';
import { messagingConfigFromEnv } from '@switchboard/service-runtime';
import { verify } from '@switchboard/signing';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { fanOutEventId } from '../src/deliveries/billing-events.consumer';
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
  await ensureStream(harness.nc, messagingConfigFromEnv(harness.env), BalanceLowEvent.stream);
  receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
  await harness.startDispatcher();
});

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
  await database?.drop();
  certificate?.remove();
});

async function publish<T extends object>(type: string, data: T, id: string = randomUUID()): Promise<EventEnvelope<T>> {
  const envelope = {
    id,
    type,
    occurred_at: new Date().toISOString(),
    correlation_id: randomUUID(),
    causation_id: null,
    data,
  };
  await jetstream(harness.nc).publish(
    eventSubject(messagingConfigFromEnv(harness.env), type),
    JSON.stringify(envelope),
    { msgID: `${envelope.id}-${randomUUID()}` },
  );
  return envelope;
}

function target(numberId: string): string {
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  void harness.numbersBilling.setTarget(numberId, { webhook_url: receiver.url(), webhook_secret: secret });
  return secret;
}

const bodies = () =>
  receiver.requests.map((request) => JSON.parse(request.rawBody.toString()) as { type: string; number_id: string });

describe('billing.balance_low and billing.top_up_failed webhooks', () => {
  beforeEach(() => receiver.requests.splice(0));

  it('fans an account event out to the numbers it names only, each signed with its own secret', async () => {
    const secrets = { num_8001: target('num_8001'), num_8002: target('num_8002'), num_8003: target('num_8003') };
    const data: BalanceLowData = {
      account_id: ACCOUNT,
      number_ids: ['num_8001', 'num_8003'],
      balance_cents: 420,
      threshold_cents: 500,
      occurred_at: new Date().toISOString(),
    };
    const event = await publish(BalanceLowEvent.type, data);
    await receiver.received(2);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(bodies().sort((x, y) => x.number_id.localeCompare(y.number_id))).toEqual([
      {
        type: 'billing.balance_low',
        number_id: 'num_8001',
        occurred_at: data.occurred_at,
        balance: { balance_cents: 420, threshold_cents: 500 },
      },
      {
        type: 'billing.balance_low',
        number_id: 'num_8003',
        occurred_at: data.occurred_at,
        balance: { balance_cents: 420, threshold_cents: 500 },
      },
    ]);
    for (const request of receiver.requests) {
      const numberId = (JSON.parse(request.rawBody.toString()) as { number_id: keyof typeof secrets }).number_id;
      expect(request.headers['x-switchboard-event-id']).toBe(fanOutEventId(event.id, numberId));
      expect(request.headers['webhook-id']).toBe(fanOutEventId(event.id, numberId));
      expect(
        verify({
          secret: secrets[numberId],
          rawBody: request.rawBody,
          timestampHeader: request.headers['x-switchboard-timestamp'],
          signatureHeader: request.headers['x-switchboard-signature'],
        }),
      ).toMatchObject({ valid: true });
    }
    // Each in its own number's log; none in the log of the number not named.
    expect((await harness.delivery(fanOutEventId(event.id, 'num_8001')))?.status).toBe('delivered');
    expect((await harness.delivery(fanOutEventId(event.id, 'num_8003')))?.status).toBe('delivered');
    expect(await harness.delivery(fanOutEventId(event.id, 'num_8002'))).toBeUndefined();
  });

  it('delivers a top_up_failed once per number, however often the event is handed out again', async () => {
    const secret = target('num_8101');
    const data: TopUpFailedData = {
      account_id: ACCOUNT,
      number_ids: ['num_8101'],
      attempt_id: randomUUID(),
      amount_cents: 1_500,
      reason: 'declined',
      attempted_at: new Date(Date.now() - 1_000).toISOString(),
      occurred_at: new Date().toISOString(),
    };
    const event = await publish(TopUpFailedEvent.type, data);
    await receiver.received(1);
    await publish(TopUpFailedEvent.type, data, event.id); // the same event again (a republished outbox row)
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(bodies()).toEqual([
      {
        type: 'billing.top_up_failed',
        number_id: 'num_8101',
        occurred_at: data.occurred_at,
        top_up: {
          attempt_id: data.attempt_id,
          amount_cents: 1_500,
          reason: 'declined',
          attempted_at: data.attempted_at,
        },
      },
    ]);
    const [request] = receiver.requests;
    expect(
      verify({
        secret,
        rawBody: request.rawBody,
        timestampHeader: request.headers['x-switchboard-timestamp'],
        signatureHeader: request.headers['x-switchboard-signature'],
      }),
    ).toMatchObject({ valid: true });
  });

  it('sends nothing when no number opted in', async () => {
    await publish(BalanceLowEvent.type, {
      account_id: ACCOUNT,
      number_ids: [],
      balance_cents: 0,
      threshold_cents: 500,
      occurred_at: new Date().toISOString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requests).toHaveLength(0);
  });
});
