import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  EndpointDisabledEvent,
  WebhookEventsRpc,
  type EndpointDisabledData,
  type EventEnvelope,
} from '@switchboard/contracts';
import { eventSubject, streamName } from '@switchboard/messaging';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { callCompletedEvent } from './factories/call-completed.factory';
import { createDispatcherHarness, type DispatcherHarness, type RpcOutcome } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type Answer, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

const ACCOUNT = 'acct_0123456789abcdefghij';
const mintSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness;
let receiver: TestReceiver | undefined;
let numberSeq = 900;

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
    WEBHOOK_TEST_CA_FILE: certificate.certFile,
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_SWEEP_INTERVAL_MS: '50',
    // A run of 3 failed attempts disables at once here; deployed, 10 over 5 days.
    WEBHOOK_DISABLE_AFTER_MS: '0',
    WEBHOOK_DISABLE_MIN_FAILURES: '3',
  });
});

afterEach(async () => {
  await harness?.close();
  await receiver?.close();
  receiver = undefined;
});

function ok<T>(reply: RpcOutcome<T>): T {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.data;
}

/** A receiver whose answer the test changes as it goes. */
async function switchableReceiver(first: Answer) {
  let current = first;
  receiver = await startHttpsReceiver(certificate, { answer: () => current });
  return (next: Answer) => (current = next);
}

function newNumber(): string {
  const numberId = `num_${(numberSeq += 1)}`;
  void harness.numbersBilling.setTarget(numberId, { webhook_url: receiver!.url(), webhook_secret: mintSecret() });
  return numberId;
}

async function publishCall(numberId: string) {
  const event = callCompletedEvent({ number_id: numberId, account_id: ACCOUNT });
  await harness.publish(event);
  return event;
}

/** The last `webhook.endpoint_disabled` published by the dispatcher's outbox. */
async function lastDisabledEvent(): Promise<EventEnvelope<EndpointDisabledData> | undefined> {
  const jsm = await jetstreamManager(harness.nc);
  const prefix = { prefix: harness.prefix };
  try {
    const message = await jsm.streams.getMessage(streamName(prefix, EndpointDisabledEvent.stream.name), {
      last_by_subj: eventSubject(prefix, EndpointDisabledEvent.type),
    });
    return message?.json<EventEnvelope<EndpointDisabledData>>();
  } catch {
    return undefined;
  }
}

describe('endpoint health', () => {
  it('disables an endpoint at once on 410 Gone, tells the account, pauses what follows, and resumes it when enabled', async () => {
    const answer = await switchableReceiver({ status: 410 });
    await harness.startDispatcher();
    const numberId = newNumber();
    const gone = await publishCall(numberId);
    await harness.eventually(async () => (await harness.delivery(gone.id))?.status === 'paused');
    // One attempt: the 410 disabled the endpoint; the retry it scheduled found it disabled and paused the event.
    expect(receiver!.requests).toHaveLength(1);

    const view = ok(await harness.rpc(WebhookEventsRpc.endpoint, { number_id: numberId }, ACCOUNT));
    expect(view).toEqual({
      number_id: numberId,
      status: 'disabled',
      disabled_reason: 'gone',
      disabled_at: expect.any(String),
      consecutive_failures: 1,
      failing_since: expect.any(String),
    });
    const told = await harness.eventually(lastDisabledEvent);
    expect(told.data).toEqual({
      account_id: ACCOUNT,
      number_id: numberId,
      reason: 'gone',
      consecutive_failures: 1,
      failing_since: expect.any(String),
      disabled_at: view.disabled_at,
    });

    const waiting = await publishCall(numberId);
    await harness.eventually(async () => (await harness.delivery(waiting.id))?.status === 'paused');
    expect(receiver!.requests).toHaveLength(1);

    answer({ status: 200 });
    const enabled = ok(await harness.rpc(WebhookEventsRpc.enableEndpoint, { number_id: numberId }, ACCOUNT));
    expect(enabled).toMatchObject({ status: 'enabled', disabled_reason: null, consecutive_failures: 0, resumed: 2 });
    await harness.eventually(
      async () =>
        (await harness.delivery(gone.id))?.status === 'delivered' &&
        (await harness.delivery(waiting.id))?.status === 'delivered',
    );
    expect(
      receiver!.requests
        .map((request) => request.headers['x-switchboard-event-id'])
        .slice(1)
        .sort(),
    ).toEqual([gone.id, waiting.id].sort());
  });

  it('disables after the documented run of consecutive failures, and a success in between starts the run again', async () => {
    const answer = await switchableReceiver({ status: 500 });
    await harness.startDispatcher();
    const numberId = newNumber();
    const first = await publishCall(numberId);
    await harness.eventually(async () => (await harness.delivery(first.id))?.attempts === 2);
    answer({ status: 200 });
    const second = await publishCall(numberId);
    await harness.eventually(
      async () =>
        (await harness.delivery(first.id))?.status === 'delivered' &&
        (await harness.delivery(second.id))?.status === 'delivered',
    );
    expect(ok(await harness.rpc(WebhookEventsRpc.endpoint, { number_id: numberId }, ACCOUNT))).toMatchObject({
      status: 'enabled',
      consecutive_failures: 0,
      failing_since: null,
    });

    answer({ status: 503 });
    const third = await publishCall(numberId);
    await harness.eventually(async () => (await harness.delivery(third.id))?.status === 'paused');
    expect((await harness.attempts(third.id)).map((attempt) => attempt.status_code)).toEqual([503, 503, 503]);
    expect(ok(await harness.rpc(WebhookEventsRpc.endpoint, { number_id: numberId }, ACCOUNT))).toMatchObject({
      status: 'disabled',
      disabled_reason: 'failing',
      consecutive_failures: 3,
    });
  });

  it('still sends a test event to a disabled endpoint, and shows another account an enabled endpoint with nothing to resume', async () => {
    await switchableReceiver({ status: 410 });
    await harness.startDispatcher();
    const numberId = newNumber();
    const event = await publishCall(numberId);
    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'paused');
    const test = ok(await harness.rpc(WebhookEventsRpc.test, { number_id: numberId }, ACCOUNT, 15_000));
    expect(test).toMatchObject({ delivered: false, status_code: 410 });
    expect(
      ok(await harness.rpc(WebhookEventsRpc.enableEndpoint, { number_id: numberId }, 'acct_zzzzzzzzzzzzzzzzzzzz')),
    ).toMatchObject({ status: 'enabled', resumed: 0 });
    expect(await harness.delivery(event.id)).toMatchObject({ status: 'paused' });
  });
});

describe('Retry-After', () => {
  it('waits as long as a 503 asks before the next attempt', async () => {
    receiver = await startHttpsReceiver(
      certificate,
      answers({ status: 503, headers: { 'Retry-After': '2' } }, { status: 200 }),
    );
    await harness.startDispatcher();
    const event = await publishCall(newNumber());
    const [first, second] = await receiver.received(2, 20_000);
    expect(second.headers['x-switchboard-event-id']).toBe(event.id);
    const gapMs =
      Number(second.headers['x-switchboard-timestamp']) * 1000 -
      Number(first.headers['x-switchboard-timestamp']) * 1000;
    // Backoff alone is 100 ms here; the receiver asked for 2 s (timestamps are whole seconds).
    expect(gapMs).toBeGreaterThanOrEqual(2000);
  });
});
