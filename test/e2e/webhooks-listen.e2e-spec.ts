import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { toStandardWebhooksSecret, verify } from '@switchboard/signing';
import { Webhook } from 'standardwebhooks';
import {
  AdminClient,
  ApiSession,
  publicRequest,
  readServerSentEvents,
  startSystem,
  waitFor,
  type RunningSystem,
} from './support';

jest.setTimeout(120_000);

const root = join(__dirname, '..', '..');

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/** `npm run -s listen -- ...` as a developer runs it, with what it prints so far. */
interface Listener {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function runListen(args: string[]): Listener {
  // In a process group of its own: npm's shell does not pass a signal on to the node process under it.
  const child = spawn('npm', ['run', '-s', 'listen', '--', ...args], {
    cwd: root,
    env: { ...process.env },
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** The stream itself, read by the test beside the command: each `webhook` event's data. */
async function readStream(
  url: string,
  key: string,
  into: { type: string; event_id: string; headers: Record<string, string>; body: string }[],
  signal: AbortSignal,
) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  void readServerSentEvents(response.body, ({ event, data }) => {
    if (event === 'ready') ready();
    if (event === 'webhook') into.push(JSON.parse(data));
  });
  await isReady;
}

/**
 * Issue 48, "Webhooks on a laptop: listen": `npm run listen` receives a number's signed deliveries through the public
 * API's stream and forwards each to a plain http:// receiver on 127.0.0.1, on a system whose egress rule is left
 * closed to private addresses (no WEBHOOK_ALLOWED_PRIVATE_HOSTS). The number's own URL resolves nowhere: only the
 * listener can get its events here.
 */
describe('webhook listen: deliveries forwarded to a receiver on this machine', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let receiver: Server;
  let port: number;
  const received: Received[] = [];
  const listeners: Listener[] = [];
  const streams = new AbortController();

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    system = await startSystem({ env: { WEBHOOK_BACKOFF_BASE_MS: '50', WEBHOOK_BACKOFF_MAX_MS: '200' } });
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
  });

  afterAll(async () => {
    streams.abort();
    for (const listener of listeners)
      if (listener.child.exitCode === null) process.kill(-listener.child.pid!, 'SIGTERM');
    await Promise.all(listeners.map((listener) => listener.exited));
    await system?.stop();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('forwards a webhook.test and a call.completed byte for byte with headers that verify, printing a line each', async () => {
    const session = await ApiSession.create(system);
    const created = await session.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: 'https://hooks.switchboard.invalid/webhooks',
    });
    expect(created.status).toBe(201);
    const number = created.body as { id: string; phone_number: string; webhook_secret: string };
    const streamed: { type: string; event_id: string; headers: Record<string, string>; body: string }[] = [];
    await readStream(
      `${system.publicUrl}/v1/numbers/${number.id}/webhook/listen`,
      session.key,
      streamed,
      streams.signal,
    );

    const listener = runListen([
      '--api-key',
      session.key,
      '--number',
      number.id,
      '--forward-to',
      `http://localhost:${port}/webhooks`,
      '--base-url',
      system.publicUrl,
    ]);
    listeners.push(listener);
    await waitFor(() => listener.stderr().includes('Ready:') || undefined, 30_000);
    expect(listener.stderr()).toContain(
      `Ready: forwarding ${number.id}'s webhooks to http://localhost:${port}/webhooks`,
    );

    // 1. The test event: the number's URL cannot be reached, the listener gets it all the same.
    const test = await session.post(`/numbers/${number.id}/webhook-test`, {});
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ delivered: false, status_code: null });
    const testEventId = test.body.event_id as string;

    // 2. A call the simulated provider reports: its call.completed.
    const call = await admin.request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order',
      started_at: new Date().toISOString(),
    });
    expect(call.status).toBe(202);
    await waitFor(() => (received.length >= 2 && listener.stdout().split('\n').length >= 3) || undefined, 30_000);

    // The listener's receipt is no delivery: the number's own URL is tried its 5 times and the event fails; the
    // retries are not forwarded again (one copy per round).
    const callEvent = await waitFor(async () => {
      const events = await session.get(`/numbers/${number.id}/webhook-events`);
      const event = (events.body.data as { id: string; type: string; status: string; attempts: unknown[] }[]).find(
        (candidate) => candidate.type === 'call.completed',
      );
      return event?.status === 'failed' ? event : undefined;
    }, 30_000);
    expect(callEvent.attempts).toHaveLength(5);

    expect(listener.stdout()).toBe(`webhook.test ${testEventId} -> 202\ncall.completed ${callEvent.id} -> 202\n`);
    expect(received).toHaveLength(2);
    const [first, second] = received;
    expect(first.path).toBe('/webhooks');
    expect(JSON.parse(first.rawBody.toString('utf8'))).toMatchObject({ type: 'webhook.test', number_id: number.id });
    expect(JSON.parse(second.rawBody.toString('utf8'))).toMatchObject({
      type: 'call.completed',
      number_id: number.id,
      call: { call_sid: call.body.call_sid, caller: '+14155550199', duration_sec: 30, outcome: 'order' },
    });
    const webhook = new Webhook(toStandardWebhooksSecret(number.webhook_secret));
    for (const [i, got] of received.entries()) {
      const eventId = i === 0 ? testEventId : callEvent.id;
      // Byte for byte what the stream carried, which the signature proves is what the dispatcher signed.
      expect(streamed[i].event_id).toBe(eventId);
      expect(got.rawBody.equals(Buffer.from(streamed[i].body, 'utf8'))).toBe(true);
      for (const [name, value] of Object.entries(streamed[i].headers))
        expect(got.headers[name.toLowerCase()]).toBe(value);
      expect(got.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'Switchboard-Webhooks/1.0',
        'x-switchboard-event-id': eventId,
        'webhook-id': eventId,
      });
      expect(
        verify({
          secret: number.webhook_secret,
          rawBody: got.rawBody,
          timestampHeader: got.headers['x-switchboard-timestamp'],
          signatureHeader: got.headers['x-switchboard-signature'],
        }),
      ).toMatchObject({ valid: true });
      expect(webhook.verify(got.rawBody.toString('utf8'), got.headers as Record<string, string>)).toBeTruthy();
    }
  });

  it("refuses another account's key: 404 on the stream, and the command exits 1 saying so", async () => {
    const owner = await ApiSession.create(system);
    const created = await owner.post('/numbers', { business_phone: '+14155550124' });
    expect(created.status).toBe(201);
    const numberId = created.body.id as string;
    const stranger = await ApiSession.create(system);
    // The owner's key may listen (so the 404 below is the number's owner, not a missing route).
    const owned = new AbortController();
    const ownerAnswer = await fetch(`${system.publicUrl}/v1/numbers/${numberId}/webhook/listen`, {
      headers: { authorization: `Bearer ${owner.key}` },
      signal: owned.signal,
    });
    expect(ownerAnswer.status).toBe(200);
    owned.abort();

    const answer = await publicRequest(system, 'GET', `/v1/numbers/${numberId}/webhook/listen`, {
      headers: { authorization: `Bearer ${stranger.key}` },
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: 'not_found' } });

    const listener = runListen([
      '--api-key',
      stranger.key,
      '--number',
      numberId,
      '--forward-to',
      `http://127.0.0.1:${port}/webhooks`,
      '--base-url',
      system.publicUrl,
    ]);
    listeners.push(listener);
    expect(await listener.exited).toBe(1);
    expect(listener.stderr()).toMatch(/^error: the API answered 404 \(not_found: .*\)$/m);
    expect(listener.stdout()).toBe('');
  });

  // Last: it stops the gateway. A rolling upgrade stops a gateway with listeners connected; its close must end their
  // streams and finish well within the 15 s a stopping process has, not wait out the 72 s keep-alive time-out.
  it('closes the gateway within 5 s with a listener connected and a connection that sent nothing', async () => {
    const session = await ApiSession.create(system);
    const created = await session.post('/numbers', { business_phone: '+14155550125' });
    expect(created.status).toBe(201);
    const { hostname, port: publicPort } = new URL(system.publicUrl);
    const stream = await fetch(`${system.publicUrl}/v1/numbers/${created.body.id as string}/webhook/listen`, {
      headers: { authorization: `Bearer ${session.key}` },
      signal: streams.signal,
    });
    expect(stream.status).toBe(200);
    const streamEnded = (async () => {
      try {
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) void chunk;
        return 'ended';
      } catch {
        return 'aborted';
      }
    })();
    // What an HTTP client's spare connection is: open, no request sent yet.
    const spare = connect({ host: hostname, port: Number(publicPort) });
    await new Promise((resolve) => spare.once('connect', resolve));
    const spareClosed = new Promise((resolve) => spare.once('close', resolve));

    const started = Date.now();
    await system.gateway.close();
    const took = Date.now() - started;
    spare.destroy();
    expect(took).toBeLessThan(5_000);
    expect(await streamEnded).toBe('ended');
    await spareClosed;
  });
});
