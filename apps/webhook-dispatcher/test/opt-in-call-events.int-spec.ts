import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { STREAMS, type EventEnvelope } from '@switchboard/contracts';
import { eventSubject, streamName } from '@switchboard/messaging';
import { messagingConfigFromEnv } from '@switchboard/service-runtime';
import { verify } from '@switchboard/signing';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { CALL_STARTED_DURABLE, CALL_UPDATED_DURABLE } from '../src/deliveries/opt-in-call-events.consumer';
import { callStartedEvent, callUpdatedEvent } from './factories/call-events.factory';
import { createDispatcherHarness, type DispatcherHarness } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

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
  receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
  await harness.startDispatcher();
});

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
  await database?.drop();
  certificate?.remove();
});

/**
 * Publishes an event to JetStream as calls-media's outbox relay does (message id = event id); resolves to its
 * sequence in the stream.
 */
async function publish(envelope: EventEnvelope<object>): Promise<number> {
  const ack = await jetstream(harness.nc).publish(
    eventSubject(messagingConfigFromEnv(harness.env), envelope.type),
    JSON.stringify(envelope),
    { msgID: envelope.id },
  );
  return ack.seq;
}

/** Resolves once `durable` has acknowledged every message up to the stream sequence `seq`. */
async function acknowledgedUpTo(durable: string, seq: number): Promise<void> {
  const jsm = await jetstreamManager(harness.nc);
  const stream = streamName(messagingConfigFromEnv(harness.env), STREAMS.calls.name);
  await harness.eventually(async () => {
    const info = await jsm.consumers.info(stream, durable).catch(() => undefined);
    return info !== undefined && info.ack_floor.stream_seq >= seq && info.num_ack_pending === 0;
  });
}

describe('call.started and call.updated webhooks (opt-in)', () => {
  it('are sent, signed, to a number subscribed to them, under the id of the event', async () => {
    const numberId = 'num_8001';
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    await harness.numbersBilling.setTarget(numberId, {
      webhook_url: receiver.url(),
      webhook_secret: secret,
      webhook_events: ['call.completed', 'call.started', 'call.updated'],
    });
    const started = callStartedEvent({ number_id: numberId });
    const updated = callUpdatedEvent({ number_id: numberId, call_sid: started.data.call_sid, duration_sec: 4_210 });

    await publish(started);
    await receiver.received(1);
    await publish(updated);
    await receiver.received(2);

    const bodies = receiver.requests.map((request) => JSON.parse(request.rawBody.toString()) as { type: string });
    expect(bodies).toEqual([
      {
        type: 'call.started',
        number_id: numberId,
        occurred_at: started.data.started_at,
        call: {
          call_sid: started.data.call_sid,
          caller: started.data.caller,
          direction: 'inbound',
          started_at: started.data.started_at,
        },
      },
      expect.objectContaining({
        type: 'call.updated',
        number_id: numberId,
        call: expect.objectContaining({ call_sid: started.data.call_sid, status: 'completed', duration_sec: 4_210 }),
        previous: { status: 'incomplete', duration_sec: 3_600 },
      }),
    ]);
    expect(receiver.requests.map((request) => request.headers['x-switchboard-event-id'])).toEqual([
      started.id,
      updated.id,
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
    expect(await harness.delivery(started.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('write nothing for a number not subscribed, or answered by an older numbers-billing, and are acknowledged', async () => {
    const sent = receiver.requests.length;
    await harness.numbersBilling.setTarget('num_8002', {
      webhook_url: receiver.url(),
      webhook_secret: `whsec_${randomBytes(32).toString('base64url')}`,
      webhook_events: ['call.completed', 'call.started'],
    });
    // No webhook_events in its reply: a numbers-billing from before opt-in call events (call.completed only).
    await harness.numbersBilling.setTarget('num_8003', {
      webhook_url: receiver.url(),
      webhook_secret: `whsec_${randomBytes(32).toString('base64url')}`,
    });
    const events = [
      callUpdatedEvent({ number_id: 'num_8002' }),
      callStartedEvent({ number_id: 'num_8003' }),
      callUpdatedEvent({ number_id: 'num_8003' }),
      callStartedEvent({ number_id: 'num_8999' }), // a number numbers-billing does not know
    ];
    const lastOf: Record<string, number> = {};
    for (const event of events) lastOf[event.type] = await publish(event);

    await acknowledgedUpTo(CALL_STARTED_DURABLE, lastOf['call.started']);
    await acknowledgedUpTo(CALL_UPDATED_DURABLE, lastOf['call.updated']);
    expect(receiver.requests).toHaveLength(sent);
    for (const event of events) expect(await harness.delivery(event.id)).toBeUndefined();
  });
});
