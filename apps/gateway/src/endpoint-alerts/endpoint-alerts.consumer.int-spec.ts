import { randomUUID } from 'node:crypto';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { EndpointDisabledEvent, type EndpointDisabledData, type EventEnvelope } from '@switchboard/contracts';
import {
  MessagingModule,
  NatsLink,
  connectNats,
  eventSubject,
  startMessaging,
  streamName,
  type MessagingConfig,
} from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { createPrismaClient, type PrismaClientHandle } from '@switchboard/persistence';
import { createTestDatabase, testMessagingConfig, testNatsOptions, type TestDatabase } from '@switchboard/testing';
import { SimulatedEmailAdapter } from '../email';
import { GatewayPrisma } from '../prisma/gateway-prisma';
import { ENDPOINT_ALERTS_DURABLE, EndpointAlertsConsumer } from './endpoint-alerts.consumer';
import { EndpointAlertsRepository } from './endpoint-alerts.repository';
import { AlertedNumberLookup, EndpointAlertsService, type AlertedNumber } from './endpoint-alerts.service';

jest.setTimeout(60_000);

const ACCOUNT = 'acct_00000000000000000009';

class FixedLookup extends AlertedNumberLookup {
  async find(): Promise<AlertedNumber> {
    return { phone_number: '+14155550100', webhook_url: 'https://hooks.example.com/in' };
  }
}

let db: TestDatabase;
let handle: PrismaClientHandle<InstanceType<typeof GatewayPrisma>>;
let mail: SimulatedEmailAdapter;
let messaging: MessagingConfig;
let gatewayNc: NatsConnection;
let superNc: NatsConnection;
let app: INestApplication;

beforeAll(async () => {
  db = await createTestDatabase('gateway');
  handle = await createPrismaClient(GatewayPrisma, 'gateway', { env: { GATEWAY_DATABASE_URL: db.url } });
  mail = new SimulatedEmailAdapter(handle.client);
  await handle.client.consoleUser.create({
    data: {
      id: 'usr_o',
      account_id: ACCOUNT,
      email: 'redelivery.owner@example.com',
      role: 'owner',
      password_hash: 'x',
    },
  });
  const logger = createLogger('gateway', 'silent');
  // The gateway's own NATS user: its grant on the WEBHOOKS stream (bus-permissions.ts) is what is tested too.
  messaging = testMessagingConfig('gateway', { prefix: `ea${randomUUID().slice(0, 8)}` });
  gatewayNc = await connectNats(messaging, 'gateway', logger);
  superNc = await connect(testNatsOptions());
  const service = new EndpointAlertsService(
    new EndpointAlertsRepository(handle.client),
    new FixedLookup(),
    mail,
    logger,
  );
  // The consumer as the gateway runs it: its event server started in the background once NATS answers.
  const link = NatsLink.follow(gatewayNc, logger);
  @Module({
    imports: [MessagingModule.forRoot({ service: 'gateway', logger, config: messaging, link, serve: false })],
    controllers: [EndpointAlertsConsumer],
    providers: [{ provide: EndpointAlertsService, useValue: service }],
  })
  class ConsumerModule {}
  app = await NestFactory.create(ConsumerModule, new FastifyAdapter(), { logger: false, abortOnError: false });
  await app.init();
  const servers = await startMessaging(app, { requests: false, eventsInBackground: true });
  await servers.events.started();
});

afterAll(async () => {
  await app?.close();
  await gatewayNc?.drain();
  await superNc?.drain();
  await handle?.close();
  await db?.drop();
});

it('mails the owner once when JetStream delivers the same event twice', async () => {
  const envelope: EventEnvelope<EndpointDisabledData> = {
    id: randomUUID(),
    type: EndpointDisabledEvent.type,
    occurred_at: new Date().toISOString(),
    correlation_id: randomUUID(),
    causation_id: null,
    data: {
      account_id: ACCOUNT,
      number_id: 'num_9',
      reason: 'failing',
      consecutive_failures: 12,
      failing_since: '2026-11-18T10:00:00.000Z',
      disabled_at: '2026-11-23T10:00:00.000Z',
    },
  };
  const js = jetstream(superNc);
  const subject = eventSubject(messaging, EndpointDisabledEvent.type);
  // Two messages with the same envelope: to the handler, the second is a redelivery of the first.
  await js.publish(subject, JSON.stringify(envelope), { msgID: `${envelope.id}-1` });
  await js.publish(subject, JSON.stringify(envelope), { msgID: `${envelope.id}-2` });

  const jsm = await js.jetstreamManager();
  const stream = streamName(messaging, EndpointDisabledEvent.stream.name);
  const deadline = Date.now() + 20_000;
  let info = await jsm.consumers.info(stream, ENDPOINT_ALERTS_DURABLE);
  while ((info.num_pending > 0 || info.num_ack_pending > 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    info = await jsm.consumers.info(stream, ENDPOINT_ALERTS_DURABLE);
  }
  expect(info.delivered.stream_seq).toBe(2);
  const sent = (await mail.sentTo('redelivery.owner@example.com')).data;
  expect(sent).toHaveLength(1);
  expect(sent[0].body).toContain('12 failed attempts in a row');
});
