import { randomBytes, randomUUID } from 'node:crypto';
import { WebhookEventsRpc, type WebhookEventList } from '@switchboard/contracts';
import { toStandardWebhooksSecret, verify } from '@switchboard/signing';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { Webhook } from 'standardwebhooks';
import { DetachedDeliveriesWorker } from '../src/events/detached-deliveries.worker';
import { callCompletedEvent } from './factories/call-completed.factory';
import { createDispatcherHarness, type DispatcherHarness, type RpcOutcome } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type ReceivedRequest, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

/** A secret as numbers-billing mints them: `whsec_` and 32 random bytes in base64url. */
const mintSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
const ACCOUNT = 'acct_0123456789abcdefghij';
const OTHER_ACCOUNT = 'acct_zzzzzzzzzzzzzzzzzzzz';

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness;
let receiver: TestReceiver | undefined;
let numberSeq = 500;
const nextNumberId = () => `num_${(numberSeq += 1)}`;

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

async function events(
  numberId: string,
  accountId = ACCOUNT,
  page: { limit?: number; starting_after?: string } = {},
): Promise<WebhookEventList> {
  return ok(await harness.rpc(WebhookEventsRpc.list, { number_id: numberId, ...page }, accountId));
}

/** A number whose webhook is the receiver, and `count` call events published for it, waited on until final. */
async function numberWithEvents(count: number, secret = mintSecret()) {
  const numberId = nextNumberId();
  await harness.numbersBilling.setTarget(numberId, { webhook_url: receiver!.url(), webhook_secret: secret });
  const published = [];
  for (let i = 0; i < count; i += 1) {
    const event = callCompletedEvent({ number_id: numberId, account_id: ACCOUNT });
    await harness.publish(event);
    published.push(event);
    // One read: with two, a row created between them (its first claim) passed for a final one.
    await harness.eventually(async () => {
      const delivery = await harness.delivery(event.id);
      return delivery !== undefined && delivery.status !== 'pending';
    });
  }
  return { numberId, secret, events: published };
}

function eventIdsOf(requests: ReceivedRequest[]): string[] {
  return requests.map((request) => String(request.headers['x-switchboard-event-id']));
}

describe("a number's delivery log", () => {
  it('lists events newest first with their attempts, by cursor, and only to the owning account', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 503 }, { status: 200 }));
    await harness.startDispatcher();
    const { numberId, events: published } = await numberWithEvents(3);

    const first = await events(numberId, ACCOUNT, { limit: 2 });
    expect(first.has_more).toBe(true);
    expect(first.data.map((event) => event.id)).toEqual([published[2].id, published[1].id]);
    const second = await events(numberId, ACCOUNT, { limit: 2, starting_after: first.data[1].id });
    expect(second).toMatchObject({ has_more: false, data: [{ id: published[0].id }] });

    // The first event failed once (503) and was delivered on its second attempt.
    expect(second.data[0]).toEqual({
      id: published[0].id,
      type: 'call.completed',
      number_id: numberId,
      status: 'delivered',
      next_attempt_at: null,
      redeliverable: true,
      created_at: expect.any(String),
      attempts: [
        {
          attempt: 1,
          url: receiver.url(),
          status_code: 503,
          error: 'receiver answered HTTP 503',
          latency_ms: expect.any(Number),
          attempted_at: expect.any(String),
        },
        {
          attempt: 2,
          url: receiver.url(),
          status_code: 200,
          error: null,
          latency_ms: expect.any(Number),
          attempted_at: expect.any(String),
        },
      ],
    });

    expect(await events(numberId, OTHER_ACCOUNT)).toEqual({ data: [], has_more: false });
    const foreignCursor = await harness.rpc(
      WebhookEventsRpc.list,
      { number_id: numberId, starting_after: first.data[1].id },
      OTHER_ACCOUNT,
    );
    expect(foreignCursor).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('refuses a request without an account', async () => {
    await harness.startDispatcher();
    await expect(harness.rpc(WebhookEventsRpc.list, { number_id: 'num_1' }, '')).resolves.toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });
});

describe('redelivery', () => {
  it('sends a failed event again under the same event id, once even when asked twice at once', async () => {
    // Five failures (the whole first round), then success.
    receiver = await startHttpsReceiver(
      certificate,
      answers({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 200 }),
    );
    // The sweep runs only when the test says: both requests are answered before anything is sent again. With the
    // sweep every 50 ms, a second request that a loaded machine handled after the resend had succeeded queued the
    // (delivered) event once more, rightly, and the test saw a seventh request.
    const app = await harness.startDispatcher({ env: { WEBHOOK_SWEEP_INTERVAL_MS: '3600000' } });
    const {
      numberId,
      events: [event],
    } = await numberWithEvents(1);
    expect(await harness.delivery(event.id)).toMatchObject({ status: 'failed', attempts: 5 });

    const [a, b] = await Promise.all([
      harness.rpc(WebhookEventsRpc.redeliver, { number_id: numberId, event_id: event.id }, ACCOUNT),
      harness.rpc(WebhookEventsRpc.redeliver, { number_id: numberId, event_id: event.id }, ACCOUNT),
    ]);
    expect(ok(a).status).toBe('pending');
    expect(ok(b).status).toBe('pending');

    const sweeper = app.get(DetachedDeliveriesWorker);
    expect(await sweeper.sweep()).toBe(1);
    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');
    // Queued once: a second sweep finds nothing to send.
    expect(await sweeper.sweep()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests).toHaveLength(6);
    expect(new Set(eventIdsOf(receiver.requests))).toEqual(new Set([event.id]));
    expect(receiver.requests[5].rawBody.equals(receiver.requests[0].rawBody)).toBe(true);
    expect(receiver.requests[5].headers['webhook-id']).toBe(event.id);
    const [view] = (await events(numberId)).data;
    expect(view.attempts.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
      [5, 500],
      [6, 200],
    ]);
  });

  it('sends a delivered event again when asked (at least once), and answers 404 for another account or event', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
    await harness.startDispatcher();
    const {
      numberId,
      events: [event],
    } = await numberWithEvents(1);

    expect(
      await harness.rpc(WebhookEventsRpc.redeliver, { number_id: numberId, event_id: event.id }, OTHER_ACCOUNT),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(
      await harness.rpc(WebhookEventsRpc.redeliver, { number_id: numberId, event_id: randomUUID() }, ACCOUNT),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(receiver.requests).toHaveLength(1);

    ok(await harness.rpc(WebhookEventsRpc.redeliver, { number_id: numberId, event_id: event.id }, ACCOUNT));
    await receiver.received(2);
    expect(eventIdsOf(receiver.requests)).toEqual([event.id, event.id]);
  });

  it('refuses an event whose body was not kept (delivered before bodies were) with event_not_redeliverable', async () => {
    await harness.startDispatcher();
    const eventId = randomUUID();
    await harness.sql(
      `INSERT INTO webhook_deliveries (event_id, call_sid, number_id, account_id, status, attempts) VALUES ($1, 'CAold', 'num_9', $2, 'failed', 5)`,
      [eventId, ACCOUNT],
    );
    expect(
      await harness.rpc(WebhookEventsRpc.redeliver, { number_id: 'num_9', event_id: eventId }, ACCOUNT),
    ).toMatchObject({
      ok: false,
      error: { code: 'event_not_redeliverable' },
    });
  });
});

describe('recovery', () => {
  it('sends every failed event since a time again, and nothing of another account', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 500 }));
    await harness.startDispatcher();
    const { numberId, events: published } = await numberWithEvents(2);
    expect(receiver.requests).toHaveLength(10);

    expect(
      ok(
        await harness.rpc(
          WebhookEventsRpc.recover,
          { number_id: numberId, since: new Date(Date.now() - 3600_000).toISOString() },
          OTHER_ACCOUNT,
        ),
      ),
    ).toEqual({ queued: 0 });
    expect(
      ok(
        await harness.rpc(
          WebhookEventsRpc.recover,
          { number_id: numberId, since: new Date(Date.now() + 3600_000).toISOString() },
          ACCOUNT,
        ),
      ),
    ).toEqual({ queued: 0 });
    const since = new Date(Date.now() - 3600_000).toISOString();
    expect(ok(await harness.rpc(WebhookEventsRpc.recover, { number_id: numberId, since }, ACCOUNT))).toEqual({
      queued: 2,
    });

    await harness.eventually(async () => {
      const rows = await Promise.all(published.map((event) => harness.delivery(event.id)));
      return rows.every((row) => row?.status === 'failed' && row.attempts === 10);
    });
    expect(receiver.requests).toHaveLength(20);
  });

  it('refuses a time more than 14 days ago', async () => {
    await harness.startDispatcher();
    const since = new Date(Date.now() - 15 * 24 * 3600_000).toISOString();
    expect(await harness.rpc(WebhookEventsRpc.recover, { number_id: 'num_1', since }, ACCOUNT)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});

describe('the test event', () => {
  it('is signed like any other, verifiable by the Standard Webhooks library, and answered with what the receiver said', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 202, body: 'thanks, got it' }));
    await harness.startDispatcher();
    const numberId = nextNumberId();
    const secret = mintSecret();
    await harness.numbersBilling.setTarget(numberId, { webhook_url: receiver.url(), webhook_secret: secret });

    const result = ok(await harness.rpc(WebhookEventsRpc.test, { number_id: numberId }, ACCOUNT, 15_000));
    expect(result).toEqual({
      event_id: expect.any(String),
      delivered: true,
      status_code: 202,
      error: null,
      response_body: 'thanks, got it',
      latency_ms: expect.any(Number),
    });

    const [request] = receiver.requests;
    expect(JSON.parse(request.rawBody.toString('utf8'))).toEqual({
      type: 'webhook.test',
      number_id: numberId,
      occurred_at: expect.any(String),
    });
    expect(request.headers['x-switchboard-event-id']).toBe(result.event_id);
    expect(
      verify({
        secret,
        rawBody: request.rawBody,
        timestampHeader: request.headers['x-switchboard-timestamp'],
        signatureHeader: request.headers['x-switchboard-signature'],
      }),
    ).toMatchObject({ valid: true });
    expect(request.headers['webhook-timestamp']).toBe(request.headers['x-switchboard-timestamp']);
    const standard = new Webhook(toStandardWebhooksSecret(secret));
    expect(standard.verify(request.rawBody.toString('utf8'), request.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
    });
    expect(() =>
      new Webhook(toStandardWebhooksSecret(mintSecret())).verify(
        request.rawBody.toString('utf8'),
        request.headers as Record<string, string>,
      ),
    ).toThrow();

    const [listed] = (await events(numberId)).data;
    expect(listed).toMatchObject({ id: result.event_id, type: 'webhook.test', status: 'delivered' });
  });

  it('says why a receiver refused it, without retrying', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 401, body: 'bad signature' }));
    await harness.startDispatcher();
    const numberId = nextNumberId();
    await harness.numbersBilling.setTarget(numberId, { webhook_url: receiver.url(), webhook_secret: mintSecret() });
    const result = ok(await harness.rpc(WebhookEventsRpc.test, { number_id: numberId }, ACCOUNT, 15_000));
    expect(result).toMatchObject({
      delivered: false,
      status_code: 401,
      error: 'receiver answered HTTP 401',
      response_body: 'bad signature',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests).toHaveLength(1);
  });

  it('answers no_webhook for a number without a webhook_url, and not_found for an unknown number', async () => {
    await harness.startDispatcher();
    const numberId = nextNumberId();
    await harness.numbersBilling.setTarget(numberId, { webhook_url: null, webhook_secret: mintSecret() });
    expect(await harness.rpc(WebhookEventsRpc.test, { number_id: numberId }, ACCOUNT, 15_000)).toMatchObject({
      ok: false,
      error: { code: 'no_webhook' },
    });
    expect(await harness.rpc(WebhookEventsRpc.test, { number_id: 'num_999999' }, ACCOUNT, 15_000)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('secret rotation overlap', () => {
  it('signs each delivery with the new and the old secret, so a receiver with either verifies it', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
    await harness.startDispatcher();
    const numberId = nextNumberId();
    const [newSecret, oldSecret] = [mintSecret(), mintSecret()];
    await harness.numbersBilling.setTarget(numberId, {
      webhook_url: receiver.url(),
      webhook_secret: newSecret,
      previous_webhook_secret: oldSecret,
    });
    await harness.publish(callCompletedEvent({ number_id: numberId, account_id: ACCOUNT }));
    const [request] = await receiver.received(1);

    expect(request.headers['x-switchboard-signature']).toMatch(/^v1=[0-9a-f]{64} v1=[0-9a-f]{64}$/);
    expect(request.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [newSecret, oldSecret]) {
      const headers = {
        timestampHeader: request.headers['x-switchboard-timestamp'],
        signatureHeader: request.headers['x-switchboard-signature'],
      };
      expect(verify({ secret, rawBody: request.rawBody, ...headers })).toMatchObject({ valid: true });
      expect(
        new Webhook(toStandardWebhooksSecret(secret)).verify(
          request.rawBody.toString('utf8'),
          request.headers as Record<string, string>,
        ),
      ).toMatchObject({ type: 'call.completed' });
    }
    expect(
      verify({
        secret: mintSecret(),
        rawBody: request.rawBody,
        timestampHeader: request.headers['x-switchboard-timestamp'],
        signatureHeader: request.headers['x-switchboard-signature'],
      }),
    ).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
  });
});
