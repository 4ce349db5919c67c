import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { CallStartedData, CallUpdatedData } from '@switchboard/contracts';
import { verify } from '@switchboard/signing';
import { testNatsOptions } from '@switchboard/testing';
import { listenLocally } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { AdminClient, ApiSession, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(90_000);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/**
 * The opt-in call webhooks through numbers-billing and the dispatcher: a number lists `call.started` (at creation)
 * and `call.updated` (by PATCH) in `webhook_events`, and gets each as a signed delivery in its log; a number that did
 * not opt in gets nothing, not even a log entry. calls-media's events are published here as its outbox would.
 */
describe('call.started and call.updated webhooks', () => {
  let system: RunningSystem;
  let nc: NatsConnection;
  let certificate: TestCertificate;
  let server: Server;
  let port: number;
  const received: Received[] = [];

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    server = createServer(
      { key: certificate.key, cert: certificate.cert },
      (req: IncomingMessage, res: ServerResponse) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({ path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) });
          res.writeHead(200).end('ok');
        });
      },
    );
    port = await listenLocally(server);
    system = await startSystem({
      services: ['numbers-billing', 'calls-media', 'webhook-dispatcher'],
      env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost', WEBHOOK_TEST_CA_FILE: certificate.certFile },
    });
    nc = await connect(testNatsOptions());
  });

  afterAll(async () => {
    await nc?.close();
    await system?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    certificate?.remove();
  });

  /** Publishes a calls-media event as its outbox relay does; resolves to the envelope id (the webhook's id). */
  async function publish(type: 'call.started' | 'call.updated', data: CallStartedData | CallUpdatedData) {
    const id = randomUUID();
    const envelope = { id, type, occurred_at: new Date().toISOString(), correlation_id: id, causation_id: null, data };
    await jetstream(nc).publish(`${system.prefix}.events.v1.${type}`, JSON.stringify(envelope), { msgID: id });
    return id;
  }

  it('delivers them, signed, only to the number that opted in, and logs nothing for the other', async () => {
    const session = await ApiSession.create(system);
    const listening = await session.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: `https://localhost:${port}/hooks/live`,
      webhook_events: ['call.started'],
      max_call_minutes: 30,
    });
    expect(listening.status).toBe(201);
    expect(listening.body).toMatchObject({ webhook_events: ['call.completed', 'call.started'], max_call_minutes: 30 });
    const quiet = await session.post('/numbers', {
      business_phone: '+14155550124',
      webhook_url: `https://localhost:${port}/hooks/quiet`,
    });
    expect(quiet.status).toBe(201);

    const call = (number: { id: string; phone_number: string }, sid: string): CallStartedData => ({
      call_sid: sid,
      account_id: session.accountId,
      number_id: number.id,
      phone_number: number.phone_number,
      caller: '+14155550199',
      direction: 'inbound',
      started_at: '2026-12-02T10:00:00.000Z',
    });
    await publish('call.started', call(quiet.body, 'CAquiet1'));
    const startedId = await publish('call.started', call(listening.body, 'CAlive1'));

    const started = await waitFor(() => received.find((r) => r.path === '/hooks/live'));
    expect(JSON.parse(started.rawBody.toString())).toEqual({
      type: 'call.started',
      number_id: listening.body.id,
      occurred_at: '2026-12-02T10:00:00.000Z',
      call: {
        call_sid: 'CAlive1',
        caller: '+14155550199',
        direction: 'inbound',
        started_at: '2026-12-02T10:00:00.000Z',
      },
    });
    expect(started.headers['x-switchboard-event-id']).toBe(startedId);
    expect(
      verify({
        secret: listening.body.webhook_secret as string,
        rawBody: started.rawBody,
        timestampHeader: started.headers['x-switchboard-timestamp'],
        signatureHeader: started.headers['x-switchboard-signature'],
      }),
    ).toMatchObject({ valid: true });

    // call.updated is its own opt-in: sent once the number lists it, from when the change is published (the
    // dispatcher then forgets the target it kept).
    const changes = nc.subscribe(`${system.prefix}.events.v1.number.updated`);
    const patched = await session.request('PATCH', `/numbers/${listening.body.id}`, {
      webhook_events: ['call.started', 'call.updated'],
    });
    expect(patched.body.webhook_events).toEqual(['call.completed', 'call.started', 'call.updated']);
    for await (const msg of changes) {
      if (msg.json<{ data: { number_id: string } }>().data.number_id === listening.body.id) break;
    }
    const updatedId = await publish('call.updated', {
      ...call(listening.body, 'CAlive1'),
      status: 'completed',
      outcome: 'order_placed',
      duration_sec: 4_210,
      has_recording: false,
      has_transcript: true,
      previous_status: 'incomplete',
      previous_duration_sec: 1_800,
    });
    const updated = await waitFor(() =>
      received.find((r) => r.headers['x-switchboard-event-id'] === updatedId && r.path === '/hooks/live'),
    );
    expect(JSON.parse(updated.rawBody.toString())).toMatchObject({
      type: 'call.updated',
      call: { call_sid: 'CAlive1', status: 'completed', duration_sec: 4_210 },
      previous: { status: 'incomplete', duration_sec: 1_800 },
    });

    const log = await waitFor(async () => {
      const page = await session.get(`/numbers/${listening.body.id}/webhook-events`);
      const events = page.body.data as { id: string; type: string; status: string }[];
      return events.length === 2 && events.every((e) => e.status === 'delivered') ? events : undefined;
    });
    expect(log.map((e) => [e.id, e.type])).toEqual([
      [updatedId, 'call.updated'],
      [startedId, 'call.started'],
    ]);
    expect((await session.get(`/numbers/${quiet.body.id}/webhook-events`)).body.data).toEqual([]);
    expect(received.filter((r) => r.path === '/hooks/quiet')).toEqual([]);
  });

  it('sends call.started when a live call starts, then its call.completed, each signed, through calls-media', async () => {
    const session = await ApiSession.create(system);
    const number = await session.post('/numbers', {
      business_phone: '+14155550125',
      webhook_url: `https://localhost:${port}/hooks/played`,
      webhook_events: ['call.started'],
    });
    expect(number.status).toBe(201);
    const played = await new AdminClient(system).request('POST', '/admin/provider/calls', {
      to: number.body.phone_number,
      caller: '+14155550188',
      duration_sec: 12,
      outcome: 'order_placed',
      transcript: [{ role: 'agent', text: 'Hello!' }],
      live: { turn_interval_ms: 300 },
    });
    expect(played.status).toBe(202);
    const sid = played.body.call_sid as string;
    const deliveries = await waitFor(() => {
      const found = received.filter((r) => r.path === '/hooks/played');
      return found.length === 2 ? found : undefined;
    });
    const bodies = deliveries.map((r) => JSON.parse(r.rawBody.toString()));
    expect(bodies.map((body) => body.type)).toEqual(['call.started', 'call.completed']);
    expect(bodies[0]).toMatchObject({ number_id: number.body.id, call: { call_sid: sid, caller: '+14155550188' } });
    expect(bodies[1]).toMatchObject({ call: { call_sid: sid, status: 'completed', duration_sec: 12 } });
    for (const delivery of deliveries)
      expect(
        verify({
          secret: number.body.webhook_secret as string,
          rawBody: delivery.rawBody,
          timestampHeader: delivery.headers['x-switchboard-timestamp'],
          signatureHeader: delivery.headers['x-switchboard-signature'],
        }),
      ).toMatchObject({ valid: true });
  });
});
