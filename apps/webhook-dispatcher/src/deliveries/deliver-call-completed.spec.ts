import { Writable } from 'node:stream';
import { ServiceError, type WebhookCopy } from '@switchboard/contracts';
import { egressPolicyFromEnv, type Resolver } from '@switchboard/egress';
import { RetryLater, type JetStreamContext } from '@switchboard/messaging';
import { verify } from '@switchboard/signing';
import pino from 'pino';
import { callCompletedEvent } from '../../test/factories/call-completed.factory';
import { callStartedEvent, callUpdatedEvent } from '../../test/factories/call-events.factory';
import { FakeEndpointHealth } from '../../test/fakes/fake-endpoint-health';
import { FakeWebhookSender } from '../../test/fakes/fake-webhook-sender';
import { FakeWebhookTargets } from '../../test/fakes/fake-webhook-targets';
import { InMemoryDeliveryStore } from '../../test/fakes/in-memory-delivery-store';
import { loadWebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WebhookEgress } from '../egress/webhook-egress';
import type { WebhookResponse } from '../webhook-sender/webhook-sender.port';
import { DeliverCallCompleted, retryAfterMs } from './deliver-call-completed';
import { IN_PROGRESS, INTERRUPTED } from './delivery-store.port';
import { HostLimiter } from './host-limiter';
import { OptInCallEventsConsumer } from './opt-in-call-events.consumer';

const SECRET = 'whsec_unit_3f9a1c0de6b24e7a9c51';
const URL_OF_NUM_1 = 'https://hooks.example.com/switchboard?token=t0k3n';
const PUBLIC_ADDRESS = '93.184.216.34';

/** DNS answers without a network: the names the tests use. */
const resolver: Resolver = async (host) => {
  const table: Record<string, string> = {
    'hooks.example.com': PUBLIC_ADDRESS,
    'rebind.example.com': '127.0.0.1',
    'intranet.example.com': '10.1.2.3',
  };
  if (!table[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return [{ address: table[host], family: 4 }];
};

function setup(options: { script?: WebhookResponse[]; env?: NodeJS.ProcessEnv; url?: string | null } = {}) {
  const env = { WEBHOOK_BACKOFF_BASE_MS: '1000', ...options.env };
  const config = loadWebhookDispatcherConfig(env);
  const store = new InMemoryDeliveryStore();
  const sender = new FakeWebhookSender(options.script);
  const targets = new FakeWebhookTargets().set('num_1', {
    webhook_url: options.url === undefined ? URL_OF_NUM_1 : options.url,
    webhook_secret: SECRET,
  });
  const logs: string[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    }),
  );
  const hosts = new HostLimiter(config);
  const health = new FakeEndpointHealth();
  const copies: { accountId: string; copy: WebhookCopy }[] = [];
  const useCase = new DeliverCallCompleted(
    store,
    targets,
    sender,
    new WebhookEgress({ egress: egressPolicyFromEnv(env) }, resolver),
    hosts,
    config,
    logger,
    health,
    { publish: (accountId, copy) => copies.push({ accountId, copy }) },
  );
  return { useCase, store, sender, targets, logs, hosts, config, health, copies };
}

function deliveryOf(event: ReturnType<typeof callCompletedEvent>) {
  return {
    event_id: event.id,
    event_type: 'call.completed',
    call_sid: event.data.call_sid,
    number_id: event.data.number_id,
    account_id: event.data.account_id,
    body: null,
  };
}

/** Runs the use case the way JetStream would: again and again until the event is acknowledged. */
async function runUntilAcknowledged(ctx: ReturnType<typeof setup>, event = callCompletedEvent(), limit = 20) {
  for (let run = 1; run <= limit; run += 1) {
    try {
      return { verdict: await ctx.useCase.deliver(event), runs: run, event };
    } catch (error) {
      if (!(error instanceof RetryLater)) throw error;
      ctx.store.backoffOver(event.id);
    }
  }
  throw new Error('never acknowledged');
}

describe('DeliverCallCompleted', () => {
  it("copies the first attempt of each round to the number's listeners, its very bytes and headers (ADR 0128)", async () => {
    const ctx = setup({ script: [{ statusCode: 500 }, { statusCode: 500 }, { statusCode: 200 }] });
    const event = callCompletedEvent();

    await runUntilAcknowledged(ctx, event);

    // Three attempts, one copy: the retries of a failing URL are not copied again.
    expect(ctx.sender.requests).toHaveLength(3);
    expect(ctx.copies).toHaveLength(1);
    const [{ accountId, copy }] = ctx.copies;
    const [request] = ctx.sender.requests;
    expect(accountId).toBe(event.data.account_id);
    expect(copy).toEqual({
      event_id: event.id,
      type: 'call.completed',
      number_id: 'num_1',
      kind: 'attempt',
      attempt: 1,
      headers: request.headers,
      body: request.body.toString('utf8'),
    });
    expect(Buffer.from(copy.body, 'utf8').equals(request.body)).toBe(true);
  });

  it('copies, signed, an event it sends nowhere: no webhook_url, or a URL the egress rule refuses', async () => {
    for (const url of [null, 'https://intranet.example.com/hook']) {
      const ctx = setup({ url });
      const event = callCompletedEvent();

      await runUntilAcknowledged(ctx, event);

      expect(ctx.sender.requests).toHaveLength(0);
      expect(ctx.copies).toHaveLength(1);
      const { copy } = ctx.copies[0];
      expect(copy).toMatchObject({ event_id: event.id, kind: 'not_sent', attempt: url ? 1 : null });
      expect(JSON.parse(copy.body)).toMatchObject({ type: 'call.completed', number_id: 'num_1' });
      expect(
        verify({
          secret: SECRET,
          rawBody: Buffer.from(copy.body, 'utf8'),
          timestampHeader: copy.headers['X-Switchboard-Timestamp'],
          signatureHeader: copy.headers['X-Switchboard-Signature'],
        }),
      ).toMatchObject({ valid: true });
      expect(copy.headers['X-Switchboard-Event-Id']).toBe(event.id);
    }
  });

  it('posts exactly the spec body, signed, with a stable event id, to the address that was checked', async () => {
    const ctx = setup();
    const event = callCompletedEvent({
      call_sid: 'CA123',
      caller: '+14155550111',
      outcome: 'order',
      duration_sec: 42,
      has_recording: false,
      has_transcript: true,
    });

    await expect(ctx.useCase.deliver(event)).resolves.toBe('delivered');

    expect(ctx.sender.requests).toHaveLength(1);
    const [request] = ctx.sender.requests;
    expect(request.target.address).toBe(PUBLIC_ADDRESS);
    expect(request.target.host).toBe('hooks.example.com');
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({
      type: 'call.completed',
      number_id: 'num_1',
      occurred_at: event.occurred_at,
      call: {
        call_sid: 'CA123',
        caller: '+14155550111',
        outcome: 'order',
        duration_sec: 42,
        started_at: event.data.started_at,
        has_recording: false,
        has_transcript: true,
        analysis: { summary: null, sentiment: 'unknown', successful: null, custom: {} },
        status: 'completed',
      },
    });
    expect(request.headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': 'Switchboard-Webhooks/1.0',
      'X-Switchboard-Event-Id': event.id,
    });
    expect(request.headers['X-Switchboard-Signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(
      verify({
        secret: SECRET,
        rawBody: request.body,
        timestampHeader: request.headers['X-Switchboard-Timestamp'],
        signatureHeader: request.headers['X-Switchboard-Signature'],
      }),
    ).toMatchObject({ valid: true });
    expect(ctx.store.attemptsOf(event.id)).toMatchObject([
      { attempt: 1, status_code: 200, error: null, url: URL_OF_NUM_1 },
    ]);
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({ status: 'delivered', attempts: 1, lease_until: null });
  });

  it('schedules the second attempt one base backoff (plus at most 25% jitter) after a 500', async () => {
    const ctx = setup({ script: [{ statusCode: 500 }] });
    const event = callCompletedEvent();

    const thrown = await ctx.useCase.deliver(event).catch((error: unknown) => error);

    expect(thrown).toBeInstanceOf(RetryLater);
    expect((thrown as RetryLater).delayMs).toBeGreaterThanOrEqual(1000);
    expect((thrown as RetryLater).delayMs).toBeLessThanOrEqual(1250);
    expect(ctx.store.attemptsOf(event.id)).toMatchObject([
      { attempt: 1, status_code: 500, error: 'receiver answered HTTP 500' },
    ]);
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('does not send again before the backoff is over, however early JetStream hands the event back', async () => {
    const ctx = setup({ script: [{ statusCode: 500 }] });
    const event = callCompletedEvent();
    await ctx.useCase.deliver(event).catch(() => undefined);

    await expect(ctx.useCase.deliver(event)).rejects.toBeInstanceOf(RetryLater);
    expect(ctx.sender.requests).toHaveLength(1);
  });

  it('stops after the third attempt when the receiver answers 500, 500, 200', async () => {
    const ctx = setup({ script: [{ statusCode: 500 }, { statusCode: 500 }, { statusCode: 200 }] });

    const { verdict, event } = await runUntilAcknowledged(ctx);

    expect(verdict).toBe('delivered');
    expect(ctx.sender.requests).toHaveLength(3);
    expect(ctx.store.attemptsOf(event.id).map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('gives up after exactly five attempts against a receiver that always fails', async () => {
    const ctx = setup({ script: [{ statusCode: 503 }] });

    const { verdict, event } = await runUntilAcknowledged(ctx);

    expect(verdict).toBe('failed');
    expect(ctx.sender.requests).toHaveLength(5);
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({ status: 'failed', attempts: 5 });
  });

  it('counts a redirect as a failed attempt, naming it', async () => {
    const ctx = setup({ script: [{ statusCode: 302 }, { statusCode: 200 }] });

    const { event } = await runUntilAcknowledged(ctx);

    expect(ctx.store.attemptsOf(event.id)[0]).toMatchObject({
      status_code: 302,
      error: 'redirect not followed (HTTP 302)',
    });
    expect(ctx.sender.requests).toHaveLength(2);
  });

  it('counts a time-out or a connection failure as a failed attempt', async () => {
    const ctx = setup({
      script: [{ error: 'timed out after 10000 ms' }, { error: 'connection refused' }, { statusCode: 204 }],
    });

    const { event } = await runUntilAcknowledged(ctx);

    expect(ctx.store.attemptsOf(event.id).map((a) => a.error)).toEqual([
      'timed out after 10000 ms',
      'connection refused',
      null,
    ]);
  });

  it('refuses a host name that resolves to 127.0.0.1, logs the refusal as the only attempt, and does not retry', async () => {
    const ctx = setup({ url: 'https://rebind.example.com/hook' });
    const event = callCompletedEvent();

    await expect(ctx.useCase.deliver(event)).resolves.toBe('refused');

    expect(ctx.sender.requests).toHaveLength(0);
    expect(ctx.store.attemptsOf(event.id)).toMatchObject([
      { attempt: 1, status_code: null, error: expect.stringMatching(/^refused: .*loopback/) },
    ]);
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({ status: 'refused' });
  });

  it('refuses a private address and a plain-http URL the same way', async () => {
    for (const url of ['https://intranet.example.com/hook', 'http://hooks.example.com/hook']) {
      const ctx = setup({ url });
      await expect(ctx.useCase.deliver(callCompletedEvent())).resolves.toBe('refused');
      expect(ctx.sender.requests).toHaveLength(0);
    }
  });

  it('delivers to a private address only when its host is in WEBHOOK_ALLOWED_PRIVATE_HOSTS', async () => {
    const ctx = setup({
      url: 'https://rebind.example.com/hook',
      env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'rebind.example.com' },
    });

    await expect(ctx.useCase.deliver(callCompletedEvent())).resolves.toBe('delivered');

    expect(ctx.sender.requests[0].target).toMatchObject({ host: 'rebind.example.com', address: '127.0.0.1' });
  });

  it('counts a name that does not resolve as a failed attempt and retries it', async () => {
    const ctx = setup({ url: 'https://gone.example.com/hook' });
    const event = callCompletedEvent();

    await expect(ctx.useCase.deliver(event)).rejects.toBeInstanceOf(RetryLater);

    expect(ctx.store.attemptsOf(event.id)).toMatchObject([
      { attempt: 1, error: 'the host gone.example.com does not resolve (ENOTFOUND)' },
    ]);
  });

  it('sends nothing and acknowledges when the number has no webhook_url', async () => {
    const ctx = setup({ url: null });
    const event = callCompletedEvent();

    await expect(ctx.useCase.deliver(event)).resolves.toBe('skipped');

    expect(ctx.sender.requests).toHaveLength(0);
    expect(ctx.store.attemptsOf(event.id)).toHaveLength(0);
  });

  it('retries later without counting an attempt when numbers-billing does not answer', async () => {
    const ctx = setup();
    ctx.targets.set('num_1', new ServiceError('service_unavailable', 'no responder'));
    const event = callCompletedEvent();

    await expect(ctx.useCase.deliver(event)).rejects.toBeInstanceOf(RetryLater);
    expect(ctx.store.attemptsOf(event.id)).toHaveLength(0);

    ctx.targets.set('num_1', { webhook_url: URL_OF_NUM_1, webhook_secret: SECRET });
    await expect(ctx.useCase.deliver(event)).resolves.toBe('delivered');
    expect(ctx.store.attemptsOf(event.id)).toMatchObject([{ attempt: 1, status_code: 200 }]);
  });

  it('sends nothing for a number numbers-billing does not know', async () => {
    const ctx = setup();
    ctx.targets.set('num_1', new ServiceError('not_found', 'no such number'));

    await expect(ctx.useCase.deliver(callCompletedEvent())).resolves.toBe('skipped');
    expect(ctx.sender.requests).toHaveLength(0);
  });

  it('does not send an event again once it has its verdict (a redelivery or a republished duplicate)', async () => {
    const ctx = setup();
    const event = callCompletedEvent();
    await ctx.useCase.deliver(event);

    await expect(ctx.useCase.deliver(event)).resolves.toBe('duplicate');
    await expect(ctx.useCase.deliver({ ...event })).resolves.toBe('duplicate');
    expect(ctx.sender.requests).toHaveLength(1);
  });

  it('sends again, under the same attempt number, an attempt cut short by a dispatcher that died', async () => {
    const ctx = setup({ script: [{ statusCode: 500 }, { statusCode: 200 }] });
    const event = callCompletedEvent();
    await ctx.useCase.deliver(event).catch(() => undefined);
    ctx.store.backoffOver(event.id);
    // A worker claims attempt 2 and dies on the wire: the row stays "in progress" until its lease runs out.
    await ctx.store.claimAttempt({
      delivery: deliveryOf(event),
      url: URL_OF_NUM_1,
      host: 'hooks.example.com:443',
      now: new Date(),
      leaseUntil: new Date(Date.now() + 60_000),
    });

    await expect(ctx.useCase.deliver(event)).rejects.toBeInstanceOf(RetryLater);
    expect(ctx.sender.requests).toHaveLength(1);
    expect(ctx.store.attemptsOf(event.id).at(-1)).toMatchObject({ attempt: 2, error: IN_PROGRESS });

    ctx.store.leaseExpired(event.id);
    await expect(ctx.useCase.deliver(event)).resolves.toBe('delivered');
    expect(ctx.store.attemptsOf(event.id).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'receiver answered HTTP 500'],
      [2, null, INTERRUPTED],
      [2, 200, null],
    ]);
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('hands the event back without claiming it when its receiver host already has its share of attempts', async () => {
    const ctx = setup({ env: { WEBHOOK_HOST_CONCURRENCY: '1' } });
    const held = await ctx.hosts.acquire('hooks.example.com:443');
    const event = callCompletedEvent();

    await expect(ctx.useCase.deliver(event)).rejects.toBeInstanceOf(RetryLater);
    expect(ctx.store.attemptsOf(event.id)).toHaveLength(0);

    held!.release();
    await expect(ctx.useCase.deliver(event)).resolves.toBe('delivered');
  });

  it('never writes the webhook secret or the URL query to its logs', async () => {
    const ctx = setup({ script: [{ statusCode: 500 }, { statusCode: 200 }] });

    await runUntilAcknowledged(ctx);

    expect(ctx.logs.length).toBeGreaterThan(0);
    const text = ctx.logs.join('\n');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('t0k3n');
    expect(text).toContain('https://hooks.example.com/switchboard?[redacted]');
  });
});

describe('opt-in call events (call.started, call.updated)', () => {
  /** The context of a message's `count`th hand-out by JetStream (the consumers read only the count). */
  const handOut = (count: number) => ({ deliveryCount: count }) as JetStreamContext;

  function optIn(webhookEvents: string[] | undefined, options: Parameters<typeof setup>[0] = {}) {
    const ctx = setup(options);
    if (webhookEvents)
      ctx.targets.set('num_1', { webhook_url: URL_OF_NUM_1, webhook_secret: SECRET, webhook_events: webhookEvents });
    return { ...ctx, consumer: new OptInCallEventsConsumer(ctx.useCase) };
  }

  it('sends call.started to a subscribed number, signed, under the id of the event', async () => {
    const ctx = optIn(['call.completed', 'call.started']);
    const event = callStartedEvent({ call_sid: 'CA77' });

    await expect(ctx.consumer.started(event, handOut(1))).resolves.toBeUndefined();

    const [request] = ctx.sender.requests;
    expect(JSON.parse(request.body.toString('utf8'))).toMatchObject({
      type: 'call.started',
      call: { call_sid: 'CA77' },
    });
    expect(request.headers['X-Switchboard-Event-Id']).toBe(event.id);
    expect(
      verify({
        secret: SECRET,
        rawBody: request.body,
        timestampHeader: request.headers['X-Switchboard-Timestamp'],
        signatureHeader: request.headers['X-Switchboard-Signature'],
      }),
    ).toMatchObject({ valid: true });
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({
      event_type: 'call.started',
      call_sid: 'CA77',
      status: 'delivered',
    });
  });

  it('sends each type only where it is listed: call.updated needs call.updated', async () => {
    const ctx = optIn(['call.completed', 'call.started']);
    const updated = callUpdatedEvent();

    await ctx.consumer.updated(updated, handOut(1));
    expect(ctx.store.deliveries.size).toBe(0);
    ctx.targets.set('num_1', {
      webhook_url: URL_OF_NUM_1,
      webhook_secret: SECRET,
      webhook_events: ['call.completed', 'call.updated'],
    });
    await ctx.consumer.updated(updated, handOut(1));

    expect(ctx.sender.requests).toHaveLength(1);
    expect(JSON.parse(ctx.sender.requests[0].body.toString('utf8'))).toMatchObject({
      type: 'call.updated',
      previous: { status: 'incomplete', duration_sec: 3_600 },
    });
  });

  it('writes nothing at all for a number not subscribed, or one numbers-billing does not know, and acknowledges', async () => {
    for (const answer of [undefined, new ServiceError('not_found', 'no such number')]) {
      const ctx = optIn(undefined); // the default target: call.completed only
      if (answer) ctx.targets.set('num_1', answer);
      const event = callStartedEvent();

      await expect(ctx.consumer.started(event, handOut(1))).resolves.toBeUndefined();

      expect(ctx.sender.requests).toHaveLength(0);
      expect(ctx.store.deliveries.size).toBe(0);
      expect(ctx.copies).toHaveLength(0);
    }
  });

  it('sends call.completed whatever webhook_events lists', async () => {
    const ctx = optIn(['call.completed']);
    await expect(ctx.useCase.deliver(callCompletedEvent())).resolves.toBe('delivered');
  });

  it('closes a delivery begun before the number opted out when JetStream hands the event back, not waiting for ever', async () => {
    const ctx = optIn(['call.completed', 'call.started'], { script: [{ statusCode: 500 }] });
    const event = callStartedEvent();
    await expect(ctx.consumer.started(event, handOut(1))).rejects.toBeInstanceOf(RetryLater);
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({ status: 'pending', attempts: 1 });

    ctx.targets.set('num_1', { webhook_url: URL_OF_NUM_1, webhook_secret: SECRET, webhook_events: ['call.completed'] });
    ctx.store.backoffOver(event.id);
    await expect(ctx.consumer.started(event, handOut(2))).resolves.toBeUndefined();

    expect(ctx.sender.requests).toHaveLength(1);
    expect(ctx.store.deliveries.get(event.id)).toMatchObject({ status: 'skipped', next_attempt_at: null });
  });
});

describe('endpoint health and Retry-After', () => {
  it('pauses the event of a disabled endpoint without sending it', async () => {
    const ctx = setup();
    ctx.store.disabled.add('num_1');
    const event = callCompletedEvent();
    await expect(ctx.useCase.deliver(event)).resolves.toBe('paused');
    expect(ctx.sender.requests).toHaveLength(0);
    expect(ctx.store.deliveries.get(event.id)?.status).toBe('paused');
  });

  it('records each counted attempt with its status for the endpoint', async () => {
    const ctx = setup({ script: [{ statusCode: 500 }, { statusCode: 200 }] });
    await runUntilAcknowledged(ctx);
    expect(ctx.health.outcomes).toEqual([
      { numberId: 'num_1', succeeded: false, statusCode: 500, failures: 1 },
      { numberId: 'num_1', succeeded: true, statusCode: 200, failures: 0 },
    ]);
  });

  it.each([429, 503])(
    'waits as long as a %i asks with Retry-After, up to the cap, never less than the backoff',
    async (statusCode) => {
      const ctx = setup({ script: [{ statusCode, retryAfter: '120' }], env: { WEBHOOK_RETRY_AFTER_MAX_MS: '60000' } });
      const error = await ctx.useCase.deliver(callCompletedEvent()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RetryLater);
      expect((error as RetryLater).delayMs).toBe(60_000);

      const short = setup({ script: [{ statusCode, retryAfter: '0' }] });
      const again = (await short.useCase.deliver(callCompletedEvent()).catch((e: unknown) => e)) as RetryLater;
      expect(again.delayMs).toBeGreaterThanOrEqual(1000);
      expect(again.delayMs).toBeLessThan(1300);
    },
  );

  it('ignores Retry-After on other statuses', async () => {
    const ctx = setup({ script: [{ statusCode: 500, retryAfter: '120' }] });
    const error = (await ctx.useCase.deliver(callCompletedEvent()).catch((e: unknown) => e)) as RetryLater;
    expect(error.delayMs).toBeLessThan(1300);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:01:00 GMT', 30_000)).toBe(30_000);
    expect(retryAfterMs('later')).toBeUndefined();
  });
});
