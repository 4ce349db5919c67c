import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import {
  createSwitchboardClient,
  paginate,
  verify,
  toStandardWebhooksSecret,
  type SwitchboardClient,
} from '@switchboard/sdk';
import { Webhook } from 'standardwebhooks';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { undeclaredFields } from './support/openapi-fields';
import { AdminClient, ApiSession, publicRequest, startSystem, type RunningSystem } from './support';

jest.setTimeout(120_000);

interface Received {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/**
 * Issue 18 through the gateway, driven by the typed SDK (@switchboard/sdk) as an integrator would: the test event,
 * a call whose deliveries fail, the delivery log, redelivery, recovery and a secret rotation with its overlap.
 * Every answer is checked against the OpenAPI description: a field it does not declare fails the test.
 */
describe('webhooks as a product, through the SDK', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let certificate: TestCertificate;
  let server: Server;
  let port: number;
  let answerStatus = 200;
  const received: Received[] = [];
  let openapi: Parameters<typeof undeclaredFields>[0];

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, rawBody: Buffer.concat(chunks) });
        res.writeHead(answerStatus, { 'content-type': 'text/plain' }).end(answerStatus === 200 ? 'ok' : 'not now');
      });
    });
    port = await listenLocally(server);
    system = await startSystem({
      env: {
        WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost',
        WEBHOOK_TEST_CA_FILE: certificate.certFile,
        WEBHOOK_BACKOFF_BASE_MS: '50',
        WEBHOOK_BACKOFF_MAX_MS: '200',
        WEBHOOK_SWEEP_INTERVAL_MS: '100',
      },
    });
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
    openapi = (await publicRequest(system, 'GET', '/v1/openapi.json')).body;
  });

  afterAll(async () => {
    await system?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    certificate?.remove();
  });

  async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Fails on any field of `body` that the named component schema does not declare. */
  function declared(schema: string, body: unknown): void {
    expect(undeclaredFields(openapi, { $ref: `#/components/schemas/${schema}` }, body)).toEqual([]);
  }

  async function eventsOf(client: SwitchboardClient, id: string) {
    const events = [];
    for await (const event of paginate((starting_after) =>
      client.GET('/v1/numbers/{id}/webhook-events', { params: { path: { id }, query: { starting_after, limit: 2 } } }),
    )) {
      events.push(event);
    }
    return events;
  }

  async function reportCall(phoneNumber: string) {
    const call = await admin.request('POST', '/admin/provider/calls', {
      to: phoneNumber,
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order',
      started_at: new Date().toISOString(),
    });
    expect(call.status).toBe(202);
    return call.body.call_sid as string;
  }

  it('tests, logs, redelivers, recovers and rotates, every answer as the OpenAPI description declares it', async () => {
    const session = await ApiSession.create(system);
    const client = createSwitchboardClient({ baseUrl: system.publicUrl, apiKey: session.key });
    const url = `https://localhost:${port}/hooks`;

    const created = await client.POST('/v1/numbers', { body: { business_phone: '+14155550123', webhook_url: url } });
    expect(created.response.status).toBe(201);
    const number = created.data!;
    declared('NumberCreated', number);
    const secret = number.webhook_secret;

    // 1. The test event: signed like any other, answered with what the receiver said.
    const test = await client.POST('/v1/numbers/{id}/webhook-test', { params: { path: { id: number.id } } });
    expect(test.response.status).toBe(200);
    declared('WebhookTestResult', test.data);
    expect(test.data).toMatchObject({ delivered: true, status_code: 200, error: null, response_body: 'ok' });
    const testRequest = received.at(-1)!;
    expect(JSON.parse(testRequest.rawBody.toString())).toMatchObject({ type: 'webhook.test', number_id: number.id });
    expect(
      verify({
        secret,
        rawBody: testRequest.rawBody,
        timestampHeader: testRequest.headers['x-switchboard-timestamp'],
        signatureHeader: testRequest.headers['x-switchboard-signature'],
      }),
    ).toMatchObject({ valid: true });
    expect(
      new Webhook(toStandardWebhooksSecret(secret)).verify(
        testRequest.rawBody.toString(),
        testRequest.headers as Record<string, string>,
      ),
    ).toMatchObject({ type: 'webhook.test' });

    // 2. A call whose five attempts all fail: the log shows each, and the event is failed.
    answerStatus = 503;
    const callSid = await reportCall(number.phone_number);
    const failed = await waitFor(async () => {
      const events = await eventsOf(client, number.id);
      const event = events.find((e) => e.type === 'call.completed');
      return event?.status === 'failed' ? event : undefined;
    });
    expect(failed.attempts.map((attempt) => attempt.status_code)).toEqual([503, 503, 503, 503, 503]);
    const listed = await client.GET('/v1/numbers/{id}/webhook-events', { params: { path: { id: number.id } } });
    declared('WebhookEventList', listed.data);
    expect(listed.data!.data.map((event) => event.type)).toEqual(['call.completed', 'webhook.test']);

    // 3. Redelivery: the same event id, delivered once the receiver is back.
    answerStatus = 200;
    const redelivered = await client.POST('/v1/numbers/{id}/webhook-events/{event_id}/redeliver', {
      params: { path: { id: number.id, event_id: failed.id } },
    });
    expect(redelivered.response.status).toBe(202);
    declared('WebhookEventView', redelivered.data);
    await waitFor(
      async () => (await eventsOf(client, number.id)).find((e) => e.id === failed.id)?.status === 'delivered',
    );
    const deliveredCopy = received.at(-1)!;
    expect(deliveredCopy.headers['x-switchboard-event-id']).toBe(failed.id);
    expect(JSON.parse(deliveredCopy.rawBody.toString()).call.call_sid).toBe(callSid);

    // 4. Recovery: a second failed call is sent again by one request.
    answerStatus = 500;
    await reportCall(number.phone_number);
    await waitFor(async () => (await eventsOf(client, number.id)).filter((e) => e.status === 'failed').length === 1);
    answerStatus = 200;
    const recovered = await client.POST('/v1/numbers/{id}/webhook-events/recover', {
      params: { path: { id: number.id } },
      body: { since: new Date(Date.now() - 3600_000).toISOString() },
    });
    expect(recovered.response.status).toBe(202);
    declared('WebhookEventsRecovered', recovered.data);
    expect(recovered.data).toEqual({ queued: 1, livemode: true });
    await waitFor(async () => (await eventsOf(client, number.id)).every((e) => e.status === 'delivered'));

    // 5. Rotation: a new secret once (the same again to a retry with the key), then both signatures on every delivery.
    const rotate = () =>
      client.POST('/v1/numbers/{id}/webhook-secret/rotate', {
        params: { path: { id: number.id }, header: { 'Idempotency-Key': 'rotate-1' } },
        body: { overlap_hours: 24 },
      });
    const rotated = await rotate();
    expect(rotated.response.status).toBe(200);
    declared('WebhookSecretRotated', rotated.data);
    const newSecret = rotated.data!.webhook_secret;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSecret).not.toBe(secret);
    const replay = await rotate();
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data!.webhook_secret).toBe(newSecret);

    await client.POST('/v1/numbers/{id}/webhook-test', { params: { path: { id: number.id } } });
    const overlap = received.at(-1)!;
    expect(overlap.headers['x-switchboard-signature']).toMatch(/^v1=[0-9a-f]{64} v1=[0-9a-f]{64}$/);
    for (const key of [newSecret, secret]) {
      expect(
        verify({
          secret: key,
          rawBody: overlap.rawBody,
          timestampHeader: overlap.headers['x-switchboard-timestamp'],
          signatureHeader: overlap.headers['x-switchboard-signature'],
        }),
      ).toMatchObject({ valid: true });
    }
  });

  it("shows another account's number as 404, refuses bad input with 400 and changes nothing", async () => {
    const owner = await ApiSession.create(system);
    const stranger = createSwitchboardClient({
      baseUrl: system.publicUrl,
      apiKey: (await ApiSession.create(system)).key,
    });
    const mine = createSwitchboardClient({ baseUrl: system.publicUrl, apiKey: owner.key });
    const number = (
      await mine.POST('/v1/numbers', {
        body: { business_phone: '+14155550123', webhook_url: `https://localhost:${port}/hooks` },
      })
    ).data!;
    const before = received.length;

    for (const answer of [
      await stranger.GET('/v1/numbers/{id}/webhook-events', { params: { path: { id: number.id } } }),
      await stranger.POST('/v1/numbers/{id}/webhook-test', { params: { path: { id: number.id } } }),
      await stranger.POST('/v1/numbers/{id}/webhook-secret/rotate', { params: { path: { id: number.id } }, body: {} }),
      await stranger.POST('/v1/numbers/{id}/webhook-events/recover', {
        params: { path: { id: number.id } },
        body: { since: new Date().toISOString() },
      }),
    ]) {
      expect({ status: answer.response.status, error: answer.error }).toMatchObject({
        status: 404,
        error: { error: { code: 'not_found' } },
      });
    }
    expect(received.length).toBe(before);

    const twentyDaysAgo = new Date(Date.now() - 20 * 24 * 3600_000).toISOString();
    for (const answer of [
      await mine.POST('/v1/numbers/{id}/webhook-events/recover', {
        params: { path: { id: number.id } },
        body: { since: 'yesterday' },
      }),
      await mine.POST('/v1/numbers/{id}/webhook-events/recover', {
        params: { path: { id: number.id } },
        body: { since: twentyDaysAgo },
      }),
      await mine.POST('/v1/numbers/{id}/webhook-events/{event_id}/redeliver', {
        params: { path: { id: number.id, event_id: 'not-an-id' } },
      }),
      await mine.GET('/v1/numbers/{id}/webhook-events', {
        params: { path: { id: number.id }, query: { limit: 1000 } },
      }),
      await mine.POST('/v1/numbers/{id}/webhook-secret/rotate', {
        params: { path: { id: number.id } },
        body: { overlap_hours: 1000 },
      }),
    ]) {
      expect({
        status: answer.response.status,
        code: (answer.error as { error: { code: string } }).error.code,
      }).toEqual({ status: 400, code: 'invalid_request' });
    }
    // The secret did not change: a test event still verifies with the one given at creation.
    await mine.POST('/v1/numbers/{id}/webhook-test', { params: { path: { id: number.id } } });
    const last = received.at(-1)!;
    expect(last.headers['x-switchboard-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(
      verify({
        secret: number.webhook_secret,
        rawBody: last.rawBody,
        timestampHeader: last.headers['x-switchboard-timestamp'],
        signatureHeader: last.headers['x-switchboard-signature'],
      }),
    ).toMatchObject({ valid: true });
  });

  it('explains why a real delivery does not verify: re-serialised body, clock skew, wrong secret, bad input', async () => {
    const session = await ApiSession.create(system);
    const client = createSwitchboardClient({ baseUrl: system.publicUrl, apiKey: session.key });
    const number = (
      await client.POST('/v1/numbers', {
        body: { business_phone: '+14155550123', webhook_url: `https://localhost:${port}/hooks` },
      })
    ).data!;
    await client.POST('/v1/numbers/{id}/webhook-test', { params: { path: { id: number.id } } });
    const delivery = received.at(-1)!;
    const headers = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));
    const raw = delivery.rawBody.toString('utf8');
    const explain = (body: { secret: string; body: string; headers: Record<string, string>; received_at?: string }) =>
      client.POST('/v1/webhooks/verify', { body });

    const valid = await explain({ secret: number.webhook_secret, body: raw, headers });
    expect(valid.response.status).toBe(200);
    declared('WebhookVerificationResult', valid.data);
    expect(valid.data).toMatchObject({ valid: true, diagnosis: 'valid', standard_webhooks_valid: true });

    const reparsed = await explain({
      secret: number.webhook_secret,
      body: JSON.stringify(JSON.parse(raw), null, 2),
      headers,
    });
    expect(reparsed.data).toMatchObject({ valid: false, diagnosis: 'body_reserialized' });

    const later = new Date((Number(headers['x-switchboard-timestamp']) + 3600) * 1000).toISOString();
    expect(
      (await explain({ secret: number.webhook_secret, body: raw, headers, received_at: later })).data,
    ).toMatchObject({
      diagnosis: 'timestamp_out_of_tolerance',
      clock_skew_seconds: 3600,
    });
    expect((await explain({ secret: 'whsec_not_the_one', body: raw, headers })).data).toMatchObject({
      valid: false,
      diagnosis: 'signature_mismatch',
    });

    const bad = await session.post('/webhooks/verify', { secret: number.webhook_secret, body: raw, headers: ['x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({
      code: 'invalid_request',
      message: 'headers must be an object of 1 to 100 header names to string values',
    });
  });
});
