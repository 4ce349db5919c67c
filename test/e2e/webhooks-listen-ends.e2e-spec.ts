import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { testNatsEnv } from '@switchboard/testing';
import { createGateway, type GatewayRuntime } from '../../apps/gateway/src/bootstrap';
import { WebhookListeners } from '../../apps/gateway/src/public/webhook-listeners';
import {
  AdminClient,
  ApiSession,
  ConsoleClient,
  publicRequest,
  readServerSentEvents,
  startSystem,
  waitFor,
  type RunningSystem,
  type ServerSentEvent,
} from './support';

jest.setTimeout(120_000);

const root = join(__dirname, '..', '..');
const PASSWORD = 'quiet otter builds paper maps';

/** One `webhook/listen` stream as a client reads it: every event so far, and when the server ended it. */
interface Stream {
  events: ServerSentEvent[];
  /** Resolves once the server has ended the stream (or the test closed it). */
  ended: Promise<void>;
  close(): void;
  /** The `end` events' data. */
  ends(): { reason: string; message: string }[];
  /** The `webhook` events' data. */
  webhooks(): { type: string; event_id: string }[];
}

const streams: Stream[] = [];

async function openStream(baseUrl: string, numberId: string, key: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/v1/numbers/${numberId}/webhook/listen`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const events: ServerSentEvent[] = [];
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const ended = readServerSentEvents(response.body, (event) => {
    events.push(event);
    if (event.event === 'ready') ready();
  });
  await Promise.race([isReady, ended]);
  const of = (type: string) => events.filter((e) => e.event === type).map((e) => JSON.parse(e.data));
  const stream: Stream = {
    events,
    ended,
    close: () => controller.abort(),
    ends: () => of('end'),
    webhooks: () => of('webhook'),
  };
  streams.push(stream);
  return stream;
}

/** Resolves when the stream has ended; rejects after `ms` (a stream the server never ends). */
async function endOf(stream: Stream, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`the stream did not end within ${ms} ms`)), ms)),
  );
  try {
    await Promise.race([stream.ended, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `npm run -s listen` as a developer runs it, the key in SWITCHBOARD_API_KEY. */
interface Command {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<number | null>;
}
const commands: Command[] = [];

function runListen(key: string, numberId: string, baseUrl: string): Command {
  // In a process group of its own: npm's shell does not pass a signal on to the node process under it.
  const child = spawn(
    'npm',
    ['run', '-s', 'listen', '--', '--number', numberId, '--forward-to', 'http://127.0.0.1:9/', '--base-url', baseUrl],
    { cwd: root, env: { ...process.env, SWITCHBOARD_API_KEY: key }, detached: true },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const command = { child, stderr: () => stderr, exited };
  commands.push(command);
  return command;
}

/**
 * How `webhook/listen` streams end: the key is checked once, when a stream opens, so its revocation (operator API,
 * console), the number's release and the stream's maximum lifetime must each end it; and no more streams than the
 * account's cap may open, however many race for the last places.
 */
describe('webhook listen: how streams end', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  /** A second gateway of the same system: a replica that must hear revocations made on the first. */
  let replica: GatewayRuntime;
  let replicaUrl: string;
  /** A replica whose streams live 2 s at most. */
  let shortLived: GatewayRuntime;
  let shortLivedUrl: string;
  let phones = 0;

  async function newNumber(key: string): Promise<{ id: string }> {
    phones += 1;
    const created = await publicRequest(system, 'POST', '/v1/numbers', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        business_phone: `+1415555${String(1000 + phones)}`,
        webhook_url: 'https://hooks.switchboard.invalid/webhooks',
      }),
    });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function sendTestEvent(key: string, numberId: string): Promise<string> {
    const sent = await publicRequest(system, 'POST', `/v1/numbers/${numberId}/webhook-test`, {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(sent.status).toBe(200);
    return sent.body.event_id;
  }

  beforeAll(async () => {
    system = await startSystem({
      // A hundred requests at once from one key and one address must reach the listener cap, not these limits.
      env: { RATE_LIMIT_REQUESTS: '100000', HTTP_MAX_CONNECTIONS_PER_CLIENT: '1000' },
    });
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 30 })).status).toBe(200);
    replica = await createGateway({ ...system.env, ...testNatsEnv('gateway') });
    replicaUrl = (await replica.listen({ port: 0, adminPort: 0 })).publicUrl;
    shortLived = await createGateway({ ...system.env, ...testNatsEnv('gateway'), WEBHOOK_LISTEN_MAX_SECONDS: '2' });
    shortLivedUrl = (await shortLived.listen({ port: 0, adminPort: 0 })).publicUrl;
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const command of commands) if (command.child.exitCode === null) process.kill(-command.child.pid!, 'SIGTERM');
    await Promise.all(commands.map((command) => command.exited));
    await replica?.close();
    await shortLived?.close();
    await system?.stop();
  });

  it('leaves exactly 10 of 100 parallel opens of one account open and refuses the 90 others with 429', async () => {
    const session = await ApiSession.create(system);
    const number = await newNumber(session.key);
    const controllers = Array.from({ length: 100 }, () => new AbortController());
    const answers = await Promise.all(
      controllers.map(async (controller) => {
        const response = await fetch(`${system.publicUrl}/v1/numbers/${number.id}/webhook/listen`, {
          headers: { authorization: `Bearer ${session.key}` },
          signal: controller.signal,
        });
        const body =
          response.status === 200
            ? undefined
            : ((await response.json()) as { error: { code: string; message: string } });
        return { status: response.status, body };
      }),
    );
    try {
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused).toHaveLength(90);
      for (const answer of refused) {
        expect(answer.status).toBe(429);
        expect(answer.body?.error).toMatchObject({
          code: 'rate_limited',
          message: expect.stringMatching(/^At most 10 webhook listeners of one account/),
        });
      }
      expect(system.gateway.publicApp.get(WebhookListeners).size).toBe(10);
    } finally {
      for (const controller of controllers) controller.abort();
    }
    await waitFor(() => system.gateway.publicApp.get(WebhookListeners).size === 0 || undefined, 10_000);
  });

  it('ends every stream of a key revoked through the operator API at once, on every replica, before the next delivery', async () => {
    const session = await ApiSession.create(system);
    const otherKey = await admin.createKey(session.accountId);
    const number = await newNumber(session.key);
    const onGateway = await openStream(system.publicUrl, number.id, session.key);
    const onReplica = await openStream(replicaUrl, number.id, session.key);
    const withOtherKey = await openStream(system.publicUrl, number.id, otherKey.key);
    const command = runListen(session.key, number.id, system.publicUrl);
    await waitFor(() => command.stderr().includes('Ready:') || undefined, 30_000);

    const revoked = await admin.request('DELETE', `/admin/accounts/${session.accountId}/api-keys/${session.keyId}`);
    expect(revoked.status).toBe(200);
    await Promise.all([endOf(onGateway, 5_000), endOf(onReplica, 5_000)]);
    for (const stream of [onGateway, onReplica])
      expect(stream.ends()).toEqual([{ reason: 'key_revoked', message: expect.stringMatching(/revoked/) }]);
    // The command stops, saying why, rather than connecting again and again to be refused.
    expect(await command.exited).toBe(1);
    expect(command.stderr()).toMatch(/^error: the API ended the stream \(key_revoked: .*revoked.*\)$/m);

    // The next delivery reaches the other key's stream only.
    const eventId = await sendTestEvent(otherKey.key, number.id);
    await waitFor(() => withOtherKey.webhooks().find((webhook) => webhook.event_id === eventId), 10_000);
    expect(onGateway.webhooks()).toEqual([]);
    expect(onReplica.webhooks()).toEqual([]);
    expect(withOtherKey.ends()).toEqual([]);
    // And the revoked key opens nothing again, on either replica.
    for (const url of [system.publicUrl, replicaUrl]) {
      const again = await fetch(`${url}/v1/numbers/${number.id}/webhook/listen`, {
        headers: { authorization: `Bearer ${session.key}` },
      });
      expect(again.status).toBe(401);
      await again.body?.cancel();
    }
  });

  it("ends the old key's stream when a console rotation is finished by revoking the old key", async () => {
    const account = await admin.createAccount({ balance_cents: 10_000 });
    const invited = await admin.request('POST', `/admin/accounts/${account.id}/users`, {
      email: 'rotating.owner@example.com',
      role: 'owner',
    });
    expect(invited.status).toBe(201);
    const owner = new ConsoleClient(system);
    const token = new URL(invited.body.invite_url as string).hash.replace('#token=', '');
    expect((await owner.post('/invites/accept', { token, password: PASSWORD })).status).toBe(200);
    const old = await owner.post('/keys', {});
    expect(old.status).toBe(201);
    const number = await newNumber(old.body.key);
    const stream = await openStream(replicaUrl, number.id, old.body.key);

    const rotated = await owner.post(`/keys/${old.body.id}/rotate`);
    expect(rotated.status).toBe(201);
    // The old key works until it is revoked: its stream still carries deliveries.
    const first = await sendTestEvent(rotated.body.key, number.id);
    await waitFor(() => stream.webhooks().find((webhook) => webhook.event_id === first), 10_000);

    expect((await owner.request('DELETE', `/keys/${old.body.id}`)).status).toBe(200);
    await endOf(stream, 5_000);
    expect(stream.ends()).toEqual([{ reason: 'key_revoked', message: expect.stringMatching(/revoked/) }]);
    const withNewKey = await openStream(replicaUrl, number.id, rotated.body.key);
    const second = await sendTestEvent(rotated.body.key, number.id);
    await waitFor(() => withNewKey.webhooks().find((webhook) => webhook.event_id === second), 10_000);
    expect(stream.webhooks().map((webhook) => webhook.event_id)).toEqual([first]);
  });

  it("ends a released number's streams after its number.released webhook, and refuses a new one with 409", async () => {
    const session = await ApiSession.create(system);
    const number = await newNumber(session.key);
    const onGateway = await openStream(system.publicUrl, number.id, session.key);
    const onReplica = await openStream(replicaUrl, number.id, session.key);

    expect((await session.delete(`/numbers/${number.id}`)).status).toBe(200);
    await Promise.all([endOf(onGateway, 15_000), endOf(onReplica, 15_000)]);
    for (const stream of [onGateway, onReplica]) {
      expect(stream.webhooks().map((webhook) => webhook.type)).toEqual(['number.released']);
      expect(stream.ends()).toEqual([{ reason: 'number_released', message: expect.stringMatching(/released/) }]);
    }
    const again = await session.get(`/numbers/${number.id}/webhook/listen`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'number_released' } });
  });

  it('answers HEAD with the headers of the stream and no body, and the same refusals as GET', async () => {
    const session = await ApiSession.create(system);
    const number = await newNumber(session.key);
    const path = `/v1/numbers/${number.id}/webhook/listen`;
    const head = (headers: Record<string, string>) =>
      fetch(`${system.publicUrl}${path}`, { method: 'HEAD', headers, signal: AbortSignal.timeout(5_000) });

    const answer = await head({ authorization: `Bearer ${session.key}` });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await answer.text()).toBe('');
    const stranger = await ApiSession.create(system);
    expect((await head({ authorization: `Bearer ${stranger.key}` })).status).toBe(404);
    expect((await head({})).status).toBe(401);
  });

  it('ends a stream after WEBHOOK_LISTEN_MAX_SECONDS with a lifetime end, and the command connects again', async () => {
    const session = await ApiSession.create(system);
    const number = await newNumber(session.key);
    const started = Date.now();
    const stream = await openStream(shortLivedUrl, number.id, session.key);
    await endOf(stream, 10_000);
    const lasted = Date.now() - started;
    // WEBHOOK_LISTEN_MAX_SECONDS=2: between 90 % and 100 % of it (and the time to read the end).
    expect(lasted).toBeGreaterThanOrEqual(1_700);
    expect(lasted).toBeLessThan(5_000);
    expect(stream.ends()).toEqual([{ reason: 'lifetime', message: expect.stringMatching(/lifetime/) }]);

    const command = runListen(session.key, number.id, shortLivedUrl);
    await waitFor(() => (command.stderr().match(/^Ready:/gm)?.length ?? 0) >= 2 || undefined, 20_000);
    expect(command.stderr()).toContain('reached its maximum lifetime; connecting again');
    expect(command.child.exitCode).toBeNull();
  });
});
