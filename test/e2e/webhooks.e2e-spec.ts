import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { verify } from '@switchboard/signing';
import { switchboardWebhookHandler, type CallCompletedEvent } from '../../libs/signing/examples/receiver';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { AdminClient, ApiSession, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(90_000);

/**
 * Issue 5 through the gateway: a call reported with the operator API reaches the number's webhook as a signed
 * `call.completed`, verified by the documented example receiver, and every attempt shows up in the operator's
 * delivery log.
 */
describe('call.completed webhooks', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let certificate: TestCertificate;
  let server: Server;
  let port: number;
  /** The example receiver's handler, made once the number (and so its secret) exists. */
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) =>
      handler ? handler(req, res) : res.writeHead(503).end(),
    );
    port = await listenLocally(server);
    system = await startSystem({
      env: {
        // The receiver runs on this machine: allow its host explicitly and trust its certificate.
        WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost',
        WEBHOOK_TEST_CA_FILE: certificate.certFile,
        WEBHOOK_BACKOFF_BASE_MS: '100',
      },
    });
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
  });

  afterAll(async () => {
    await system?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    certificate?.remove();
  });

  it('delivers a signed call.completed that the example receiver verifies, retried after a 500, and logs each attempt', async () => {
    const session = await ApiSession.create(system);
    const url = `https://localhost:${port}/hooks/switchboard`;
    const created = await session.post('/numbers', { business_phone: '+14155550123', webhook_url: url });
    expect(created.status).toBe(201);
    const received: CallCompletedEvent[] = [];
    let failuresLeft = 1;
    handler = switchboardWebhookHandler(created.body.webhook_secret, async (event) => {
      if (failuresLeft-- > 0) throw new Error('not ready yet'); // the example answers 500: Switchboard tries again
      received.push(event);
    });

    const call = await admin.request('POST', '/admin/provider/calls', {
      to: created.body.phone_number,
      caller: '+14155550199',
      duration_sec: 61,
      outcome: 'order_placed',
      started_at: '2026-11-20T10:00:00.000Z',
      recording: true,
      analysis: { summary: 'Ordered a large margherita.', sentiment: 'positive', successful: true },
    });
    expect(call.status).toBe(202);

    const event = await waitFor(async () => received.find((e) => e.call.call_sid === call.body.call_sid));
    expect(event).toEqual({
      type: 'call.completed',
      number_id: created.body.id,
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      call: {
        call_sid: call.body.call_sid,
        caller: '+14155550199',
        outcome: 'order_placed',
        duration_sec: 61,
        started_at: '2026-11-20T10:00:00.000Z',
        has_recording: true,
        has_transcript: false,
        analysis: { summary: 'Ordered a large margherita.', sentiment: 'positive', successful: true, custom: {} },
        status: 'completed',
      },
    });
    expect(received).toHaveLength(1);

    const log = await waitFor(async () => {
      const answer = await admin.request('GET', `/admin/webhook-deliveries?number_id=${created.body.id}`);
      return answer.body.data?.[0]?.status_code === 204 ? answer : undefined;
    });
    expect(log.status).toBe(200);
    const eventId = log.body.data[0].event_id;
    expect(log.body.data).toEqual([
      {
        event_id: eventId,
        event_type: 'call.completed',
        call_sid: call.body.call_sid,
        url,
        attempt: 2,
        status_code: 204,
        error: null,
        delivered_at: expect.any(String),
      },
      {
        event_id: eventId,
        event_type: 'call.completed',
        call_sid: call.body.call_sid,
        url,
        attempt: 1,
        status_code: 500,
        error: 'receiver answered HTTP 500',
        delivered_at: expect.any(String),
      },
    ]);
    expect(Date.parse(log.body.data[0].delivered_at)).toBeGreaterThanOrEqual(Date.parse(log.body.data[1].delivered_at));
  });

  it('signs with the new secret alone after a rotation without overlap, and follows a new URL, from the next call (ADR 0075)', async () => {
    const session = await ApiSession.create(system);
    const created = await session.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: `https://localhost:${port}/hooks/first`,
    });
    expect(created.status).toBe(201);
    const requests: { path: string; headers: IncomingMessage['headers']; body: Buffer }[] = [];
    handler = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    };
    const callAndWait = async () => {
      const call = await admin.request('POST', '/admin/provider/calls', {
        to: created.body.phone_number,
        caller: '+14155550199',
        duration_sec: 30,
        outcome: 'message_taken',
      });
      expect(call.status).toBe(202);
      return waitFor(async () =>
        requests.find(
          (r) => (JSON.parse(r.body.toString()) as CallCompletedEvent).call.call_sid === call.body.call_sid,
        ),
      );
    };
    const validWith = (secret: string, request: { headers: IncomingMessage['headers']; body: Buffer }) =>
      verify({
        secret,
        rawBody: request.body,
        timestampHeader: request.headers['x-switchboard-timestamp'],
        signatureHeader: request.headers['x-switchboard-signature'],
      }).valid;

    const first = await callAndWait(); // the dispatcher now keeps this number's target
    expect(validWith(created.body.webhook_secret, first)).toBe(true);

    const rotated = await session.post(`/numbers/${created.body.id}/webhook-secret/rotate`, { overlap_hours: 0 });
    expect(rotated.status).toBe(200);
    const second = await callAndWait();
    expect(second.headers['x-switchboard-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(validWith(rotated.body.webhook_secret, second)).toBe(true);
    expect(validWith(created.body.webhook_secret, second)).toBe(false);

    const moved = await session.request('PATCH', `/numbers/${created.body.id}`, {
      webhook_url: `https://localhost:${port}/hooks/second`,
    });
    expect(moved.status).toBe(200);
    const third = await callAndWait();
    expect(third.path).toBe('/hooks/second');
    expect(requests.map((r) => r.path)).toEqual(['/hooks/first', '/hooks/first', '/hooks/second']);
  });

  it('answers an empty log for a number without deliveries, accepting the bare numeric id', async () => {
    const answer = await admin.request('GET', '/admin/webhook-deliveries?number_id=987654');
    expect(answer).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('refuses a malformed number_id with 400 invalid_request and a missing token with 401', async () => {
    const bad = await admin.request('GET', '/admin/webhook-deliveries?number_id=acct_1');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    const anonymous = await fetch(`${system.adminUrl}/admin/webhook-deliveries?number_id=num_1`);
    expect(anonymous.status).toBe(401);
  });
});
