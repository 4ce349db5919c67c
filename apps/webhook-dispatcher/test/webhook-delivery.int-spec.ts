import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { verify } from '@switchboard/signing';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { startReceiver, type CallCompletedEvent } from '../../../libs/signing/examples/receiver';
import { callCompletedEvent } from './factories/call-completed.factory';
import { createDispatcherHarness, type DispatcherHarness } from './support/dispatcher-harness';
import { answers, startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(60_000);

const SECRET = 'whsec_int_8c1f0b9e2d7a4c36b5e1';
const repoRoot = join(__dirname, '..', '..', '..');

let database: TestDatabase;
let certificate: TestCertificate;
let harness: DispatcherHarness;
let receiver: TestReceiver | undefined;
let numberSeq = 100;
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
  // 127.0.0.1 is a private address: the local test receiver has to be allowed explicitly.
  harness = await createDispatcherHarness(database, {
    WEBHOOK_TEST_CA_FILE: certificate.certFile,
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
  });
});

afterEach(async () => {
  await harness?.close();
  await receiver?.close();
  receiver = undefined;
});

/** Sends one event for a new number whose webhook is `url`; returns the event and the number id. */
async function sendCall(url: string) {
  const numberId = nextNumberId();
  await harness.numbersBilling.setTarget(numberId, { webhook_url: url, webhook_secret: SECRET });
  const event = callCompletedEvent({ number_id: numberId });
  await harness.publish(event);
  return { event, numberId };
}

describe('webhook delivery to a real HTTPS receiver', () => {
  it('is verified by the documented example receiver, which refuses a forged copy', async () => {
    const received: CallCompletedEvent[] = [];
    const server = await startReceiver({
      port: 0,
      key: certificate.key,
      cert: certificate.cert,
      secret: SECRET,
      onCallCompleted: async (event) => {
        received.push(event);
      },
    });
    try {
      const { port } = server.address() as AddressInfo;
      await harness.startDispatcher();
      const { event, numberId } = await sendCall(`https://localhost:${port}/webhooks/switchboard`);

      await harness.eventually(async () => received.length === 1);
      expect(received[0]).toEqual({
        type: 'call.completed',
        number_id: numberId,
        occurred_at: event.occurred_at,
        call: {
          call_sid: event.data.call_sid,
          caller: event.data.caller,
          outcome: event.data.outcome,
          duration_sec: event.data.duration_sec,
          started_at: event.data.started_at,
          has_recording: event.data.has_recording,
          has_transcript: event.data.has_transcript,
          // An event written before calls had an analysis is delivered with the empty one.
          analysis: { summary: null, sentiment: 'unknown', successful: null, custom: {} },
          status: event.data.status,
        },
      });
      const log = await harness.eventually(async () => {
        const attempts = await harness.deliveryLog(numberId);
        return attempts.length === 1 && attempts[0].status_code !== null ? attempts : undefined;
      });
      expect(log).toEqual([
        {
          event_id: event.id,
          event_type: 'call.completed',
          call_sid: event.data.call_sid,
          url: `https://localhost:${port}/webhooks/switchboard`,
          attempt: 1,
          status_code: 204,
          error: null,
          delivered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);

      const forged = JSON.stringify({ ...received[0], call: { ...received[0].call, duration_sec: 1 } });
      const status = await postTo(port, forged, {
        'X-Switchboard-Timestamp': String(Math.floor(Date.now() / 1000)),
        'X-Switchboard-Signature': `v1=${'0'.repeat(64)}`,
      });
      expect(status).toBe(401);
      expect(received).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is the example of docs/webhooks.md, word for word', () => {
    const example = readFileSync(join(repoRoot, 'libs/signing/examples/receiver.ts'), 'utf8');
    const doc = readFileSync(join(repoRoot, 'docs/webhooks.md'), 'utf8');
    expect(doc).toContain('```ts\n' + example + '```');
  });

  it('carries the wire headers: JSON, user agent, stable event id, timestamp and v1 signature', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 500 }, { status: 200 }));
    await harness.startDispatcher();
    const { event } = await sendCall(receiver.url('/hook?source=switchboard'));

    const [first, second] = await receiver.received(2);

    for (const request of [first, second]) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/hook?source=switchboard');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('Switchboard-Webhooks/1.0');
      expect(request.headers['x-switchboard-event-id']).toBe(event.id);
      expect(request.headers['x-switchboard-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
      const nowSec = Math.floor(Date.now() / 1000);
      expect(Number(request.headers['x-switchboard-timestamp'])).toBeGreaterThan(nowSec - 60);
      expect(
        verify({
          secret: SECRET,
          rawBody: request.rawBody,
          timestampHeader: request.headers['x-switchboard-timestamp'],
          signatureHeader: request.headers['x-switchboard-signature'],
        }),
      ).toMatchObject({ valid: true });
    }
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
  });

  it('sends a burst of events to one receiver one after another on the connection it keeps (ADR 0075)', async () => {
    // Each answer takes 100 ms, so the four attempts would overlap on four connections were nothing waited for.
    let onWire = 0;
    let mostOnWire = 0;
    receiver = await startHttpsReceiver(certificate, {
      handler: (_req, res) => {
        onWire += 1;
        mostOnWire = Math.max(mostOnWire, onWire);
        setTimeout(() => {
          onWire -= 1;
          res.writeHead(200).end();
        }, 100);
      },
    });
    // A wait longer than any attempt here, so the outcome does not depend on how busy the machine is.
    await harness.startDispatcher({ env: { WEBHOOK_CONNECTION_REUSE_WAIT_MS: '5000' } });
    const events = await Promise.all([1, 2, 3, 4].map(() => sendCall(receiver!.url('/burst'))));

    const requests = await receiver.received(4);

    expect(requests.map((r) => r.connection)).toEqual([1, 1, 1, 1]);
    expect(mostOnWire).toBe(1);
    for (const { event } of events)
      await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');
  });

  it('makes three attempts and stops when the receiver answers 500, 500, 200', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 500 }, { status: 500 }, { status: 200 }));
    await harness.startDispatcher();
    const { event, numberId } = await sendCall(receiver.url());

    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');
    // Longer than every backoff left would be, had it not stopped.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(receiver.requests).toHaveLength(3);
    expect(await harness.delivery(event.id)).toEqual({ status: 'delivered', attempts: 3 });
    const log = await harness.deliveryLog(numberId);
    expect(log.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [3, 200, null],
      [2, 500, 'receiver answered HTTP 500'],
      [1, 500, 'receiver answered HTTP 500'],
    ]);
  });

  it('makes exactly five attempts, with growing pauses, against a receiver that always answers 500', async () => {
    const arrivals: number[] = [];
    receiver = await startHttpsReceiver(certificate, {
      answer: () => {
        arrivals.push(Date.now());
        return { status: 500 };
      },
    });
    await harness.startDispatcher();
    const { event, numberId } = await sendCall(receiver.url());

    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'failed');
    await new Promise((resolve) => setTimeout(resolve, 2500));

    expect(receiver.requests).toHaveLength(5);
    expect(await harness.delivery(event.id)).toEqual({ status: 'failed', attempts: 5 });
    expect((await harness.deliveryLog(numberId)).map((a) => a.attempt)).toEqual([5, 4, 3, 2, 1]);
    // WEBHOOK_BACKOFF_BASE_MS=100: at least 100, 200, 400 and 800 ms between attempts.
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(100 * 2 ** i - 20));
  });

  it('does not follow a redirect: a 302 is a failed attempt and the Location is never requested', async () => {
    receiver = await startHttpsReceiver(certificate, {
      answer: (request) =>
        request.path === '/moved' ? { status: 200 } : { status: 302, headers: { Location: '/moved' } },
    });
    await harness.startDispatcher();
    const { event, numberId } = await sendCall(receiver.url('/hook'));

    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'failed');

    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook', '/hook', '/hook', '/hook', '/hook']);
    expect((await harness.deliveryLog(numberId))[0]).toMatchObject({
      status_code: 302,
      error: 'redirect not followed (HTTP 302)',
    });
  });

  it('gives up on a receiver that does not answer within WEBHOOK_TIMEOUT_MS and tries again', async () => {
    receiver = await startHttpsReceiver(certificate, answers('hang', { status: 200 }));
    await harness.startDispatcher({ env: { WEBHOOK_TIMEOUT_MS: '1000' } });
    const { event, numberId } = await sendCall(receiver.url());

    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');

    expect((await harness.deliveryLog(numberId)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [2, 200, null],
      [1, null, 'timed out after 1000 ms'],
    ]);
  });

  it('refuses a receiver whose certificate is not trusted, as a failed attempt', async () => {
    const stranger = selfSignedCertificate();
    try {
      receiver = await startHttpsReceiver(stranger, answers({ status: 200 }));
      await harness.startDispatcher();
      const { numberId } = await sendCall(receiver.url());

      const log = await harness.eventually(async () => {
        const attempts = await harness.deliveryLog(numberId);
        return attempts.find((a) => a.error !== 'in progress');
      });
      expect(log.error).toMatch(/^TLS certificate not trusted/);
    } finally {
      stranger.remove();
    }
  });

  it('sends nothing when the number has no webhook_url', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
    await harness.startDispatcher();
    const numberId = nextNumberId();
    await harness.numbersBilling.setTarget(numberId, { webhook_url: null, webhook_secret: SECRET });
    const event = callCompletedEvent({ number_id: numberId });
    await harness.publish(event);

    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'skipped');
    expect(receiver.requests).toHaveLength(0);
    expect(await harness.deliveryLog(numberId)).toEqual([]);
  });

  it('keeps an event while numbers-billing does not answer and delivers it once it does', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
    harness.numbersBilling.stop();
    await harness.startDispatcher();
    const numberId = nextNumberId();
    await harness.numbersBilling.setTarget(numberId, { webhook_url: receiver.url(), webhook_secret: SECRET });
    const event = callCompletedEvent({ number_id: numberId });
    await harness.publish(event);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Nothing is decided or counted while the target is unknown: the event waits, unacknowledged, in JetStream
    // (its delivery row is written by its first claim).
    expect(await harness.delivery(event.id)).toBeUndefined();
    expect(await harness.attempts(event.id)).toEqual([]);

    harness.numbersBilling.start();
    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');
    expect(receiver.requests).toHaveLength(1);
  });

  it('asks numbers-billing once for a number, and again once it hears the number changed (ADR 0075)', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
    const moved = await startHttpsReceiver(certificate, answers({ status: 200 }));
    try {
      await harness.startDispatcher();
      const { event, numberId } = await sendCall(receiver.url());
      await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');
      const second = callCompletedEvent({ number_id: numberId });
      await harness.publish(second);
      await harness.eventually(async () => (await harness.delivery(second.id))?.status === 'delivered');
      expect(harness.numbersBilling.asked.filter((id) => id === numberId)).toHaveLength(1);

      // The account points the webhook elsewhere: numbers-billing publishes number.updated, heard by every replica.
      await harness.numbersBilling.setTarget(numberId, { webhook_url: moved.url(), webhook_secret: SECRET });
      const third = callCompletedEvent({ number_id: numberId });
      await harness.publish(third);
      await harness.eventually(async () => (await harness.delivery(third.id))?.status === 'delivered');
      expect(receiver.requests).toHaveLength(2);
      expect(moved.requests).toHaveLength(1);
      expect(harness.numbersBilling.asked.filter((id) => id === numberId)).toHaveLength(2);
    } finally {
      await moved.close();
    }
  });

  it('delivers an event published twice (after the de-duplication window) only once', async () => {
    receiver = await startHttpsReceiver(certificate, answers({ status: 200 }));
    await harness.startDispatcher();
    const { event } = await sendCall(receiver.url());
    await harness.eventually(async () => (await harness.delivery(event.id))?.status === 'delivered');

    // A republish that JetStream no longer de-duplicates (as after its 2-minute window): the same event again.
    await harness.publish(event, { msgId: `${event.id}-republished` });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.requests).toHaveLength(1);
  });
});

function postTo(port: number, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: { ...headers, 'Content-Type': 'application/json' },
        rejectUnauthorized: false,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
