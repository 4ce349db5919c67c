import { randomBytes } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import pino from 'pino';
import {
  ListNumbersQuery,
  NumbersRpc,
  STREAMS,
  WebhookTargetRpc,
  type NumberList,
  type ServiceName,
} from '@switchboard/contracts';
import { testMessagingConfig, testNatsOptions, testNatsUrl } from '@switchboard/testing';
import { inboxPrefix } from './bus-permissions';
import { ensureStream } from './jetstream';
import { eventSubject, rpcSubject, streamName, type MessagingConfig } from './messaging.config';
import { MessagingModule } from './messaging.module';
import { NatsLink } from './nats-link';
import { RpcClient } from './rpc-client';
import { Caller, RpcPattern, type RpcContext } from './rpc-pattern.decorator';
import { startMessaging } from './start-messaging';

// The lock on the bus, against the tests' nats-server, whose users are generated from BUS_GRANTS exactly as
// `npm start` and the deployments generate theirs.
const config: MessagingConfig = {
  natsUrl: '',
  prefix: `perm${randomBytes(4).toString('hex')}`,
  requestTimeoutMs: 2000,
};
const encoder = new TextEncoder();
const connections: NatsConnection[] = [];

async function connectAs(service: ServiceName): Promise<NatsConnection> {
  const nc = await connect({ ...testNatsOptions(service), inboxPrefix: inboxPrefix(service) });
  connections.push(nc);
  return nc;
}

/** Resolves when the server reports a permission violation for `subject` on this connection. */
async function violation(nc: NatsConnection, operation: 'publish' | 'subscription', subject: string): Promise<void> {
  for await (const status of nc.status()) {
    if (status.type !== 'error') continue;
    const error = status.error;
    if (error instanceof errors.PermissionViolationError && error.operation === operation && error.subject === subject)
      return;
  }
}

/** The request failed because the server refused to publish it (not for want of an answer). */
async function refusedRequest(nc: NatsConnection, subject: string): Promise<void> {
  const error = await nc.request(subject, encoder.encode('{}'), { timeout: 2000 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(errors.RequestError);
  expect((error as Error).cause).toBeInstanceOf(errors.PermissionViolationError);
}

function within<T>(promise: Promise<T>, ms = 3000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms).unref()),
  ]);
}

afterAll(async () => {
  const admin = await connect(testNatsOptions());
  const jsm = await jetstreamManager(admin);
  for (const stream of [STREAMS.numbers, STREAMS.calls])
    await jsm.streams.delete(streamName(config, stream.name)).catch(() => undefined);
  await admin.close();
  await Promise.all(connections.map((nc) => nc.close()));
});

describe('the bus lock', () => {
  it('refuses a client without credentials, and one with a wrong password', async () => {
    await expect(connect({ servers: testNatsUrl() })).rejects.toThrow(/Authorization/i);
    await expect(connect({ servers: testNatsUrl(), user: 'gateway', pass: 'not-the-password' })).rejects.toThrow(
      /Authorization/i,
    );
  });

  it('lets the gateway ask a service its public subject and the service answer', async () => {
    const billing = await connectAs('numbers-billing');
    const gateway = await connectAs('gateway');
    billing.subscribe(rpcSubject(config, 'numbers.v1.list'), {
      queue: 'numbers-billing',
      callback: (_err, msg) => void msg.respond(encoder.encode('listed')),
    });
    await billing.flush();
    const reply = await gateway.request(rpcSubject(config, 'numbers.v1.list'), encoder.encode('{}'), { timeout: 2000 });
    expect(reply.string()).toBe('listed');
    expect(reply.subject.startsWith('_INBOX.gateway.')).toBe(true);
  });

  it("lets the gateway's RpcClient ask numbers-billing's Nest server, each as its own user, and only on its own inbox", async () => {
    @Controller()
    class Numbers {
      @RpcPattern(NumbersRpc.list)
      async list(@Payload() _query: ListNumbersQuery, @Caller() ctx: RpcContext): Promise<NumberList> {
        return { data: [], has_more: false, account: ctx.accountId } as NumberList;
      }
    }
    const logger = pino({ level: 'silent' });
    // A prefix of its own: the raw responder of the test above still answers numbers.v1.list in the same queue group.
    const prefix = `${config.prefix}n`;
    const billingConfig = testMessagingConfig('numbers-billing', { prefix });
    @Module({
      imports: [MessagingModule.forRoot({ service: 'numbers-billing', logger, config: billingConfig })],
      controllers: [Numbers],
    })
    class BillingModule {}
    const billing = await NestFactory.create(BillingModule, new FastifyAdapter(), { logger: false });
    try {
      await billing.init();
      await startMessaging(billing);
      const gateway = await connectAs('gateway');
      const gatewayConfig = testMessagingConfig('gateway', { prefix, requestTimeoutMs: 1000 });
      // As connectNats makes it: replies on the gateway's own inbox prefix, one subscription for all of them.
      const rpc = new RpcClient(NatsLink.follow(gateway), gatewayConfig);
      await expect(rpc.request(NumbersRpc.list, {}, { accountId: 'acct_x' })).resolves.toMatchObject({
        account: 'acct_x',
      });
      // A connection on NATS's default inbox: the server refuses the gateway its reply subscription, so no reply comes.
      const defaultInbox = await connect(testNatsOptions('gateway'));
      connections.push(defaultInbox);
      const elsewhere = new RpcClient(NatsLink.follow(defaultInbox), gatewayConfig);
      const started = Date.now();
      await expect(elsewhere.request(NumbersRpc.list, {}, { accountId: 'acct_x' })).rejects.toMatchObject({
        code: 'service_unavailable',
      });
      expect(Date.now() - started).toBeLessThan(gatewayConfig.requestTimeoutMs + 500);
    } finally {
      await billing.close();
    }
  });

  it("refuses the gateway the webhook-target subject, another service's subjects and events, and others' inboxes", async () => {
    const gateway = await connectAs('gateway');
    const webhookTarget = rpcSubject(config, WebhookTargetRpc.subject);
    await refusedRequest(gateway, webhookTarget);

    for (const subject of [
      rpcSubject(config, 'numbers.v1.list'),
      webhookTarget,
      '_INBOX.webhook-dispatcher.>',
      '_INBOX.>',
    ]) {
      const refused = violation(gateway, 'subscription', subject);
      gateway.subscribe(subject);
      await within(refused);
    }
    const event = eventSubject(config, 'call.completed');
    const refused = violation(gateway, 'publish', event);
    gateway.publish(event, encoder.encode('{}'));
    await within(refused);
  });

  it('lets a service serve only its own subjects, ask no other service, and publish only its own events', async () => {
    const calls = await connectAs('calls-media');
    // Nor ask another service anything: only the gateway speaks for a tenant (sets the account header).
    await refusedRequest(calls, rpcSubject(config, 'numbers.v1.list'));
    const served = violation(calls, 'subscription', rpcSubject(config, 'numbers.v1.list'));
    calls.subscribe(rpcSubject(config, 'numbers.v1.list'), { queue: 'calls-media' });
    await within(served);

    await ensureStream(calls, config, STREAMS.calls);
    await ensureStream(calls, config, STREAMS.numbers);
    const ack = await jetstream(calls).publish(eventSubject(config, 'call.completed'), encoder.encode('{}'));
    expect(ack.stream).toBe(streamName(config, STREAMS.calls.name));
    const foreign = eventSubject(config, 'number.provisioned');
    const published = violation(calls, 'publish', foreign);
    calls.publish(foreign, encoder.encode('{}'));
    await within(published);
  });

  it('lets only webhook-dispatcher ask numbers-billing for a webhook target', async () => {
    const billing = await connectAs('numbers-billing');
    const dispatcher = await connectAs('webhook-dispatcher');
    const lostfound = await connectAs('lostfound');
    const subject = rpcSubject(config, WebhookTargetRpc.subject);
    billing.subscribe(subject, {
      queue: 'numbers-billing',
      callback: (_err, msg) => void msg.respond(encoder.encode('target')),
    });
    await billing.flush();
    expect((await dispatcher.request(subject, encoder.encode('{}'), { timeout: 2000 })).string()).toBe('target');
    await refusedRequest(lostfound, subject);
  });

  it('lets webhook-dispatcher hear number changes as numbers-billing publishes them, and no one else (ADR 0075)', async () => {
    const billing = await connectAs('numbers-billing');
    const dispatcher = await connectAs('webhook-dispatcher');
    const heard: string[] = [];
    for (const type of ['number.updated', 'number.released'])
      dispatcher.subscribe(eventSubject(config, type), {
        callback: (_err, msg) => {
          heard.push(msg.subject);
        },
      });
    await dispatcher.flush();
    await ensureStream(billing, config, STREAMS.numbers);
    await jetstream(billing).publish(eventSubject(config, 'number.updated'), encoder.encode('{}'));
    await jetstream(billing).publish(eventSubject(config, 'number.released'), encoder.encode('{}'));
    await dispatcher.flush();
    expect(heard).toEqual([eventSubject(config, 'number.updated'), eventSubject(config, 'number.released')]);

    // Only those two: the dispatcher may not listen to other events, nor another service to these.
    const other = violation(dispatcher, 'subscription', eventSubject(config, 'number.provisioned'));
    dispatcher.subscribe(eventSubject(config, 'number.provisioned'));
    await within(other);
    const calls = await connectAs('calls-media');
    const refused = violation(calls, 'subscription', eventSubject(config, 'number.updated'));
    calls.subscribe(eventSubject(config, 'number.updated'));
    await within(refused);
  });

  it('refuses a service a durable consumer that is not its own', async () => {
    const dispatcher = await connectAs('webhook-dispatcher');
    const stream = await ensureStream(dispatcher, config, STREAMS.calls);
    const jsm = await jetstreamManager(dispatcher);
    await expect(
      jsm.consumers.add(stream, { durable_name: 'numbers-billing-talk-time', ack_policy: AckPolicy.Explicit }),
    ).rejects.toThrow();
    await expect(
      jsm.consumers.add(stream, { durable_name: 'webhook-dispatcher', ack_policy: AckPolicy.Explicit }),
    ).resolves.toMatchObject({ name: 'webhook-dispatcher' });
  });
});
