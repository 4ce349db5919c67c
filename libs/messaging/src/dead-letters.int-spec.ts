import { randomBytes, randomUUID } from 'node:crypto';
import { Controller, Injectable, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import pino from 'pino';
import {
  NumberReleasedEvent,
  NumberUpdatedEvent,
  STREAMS,
  deadLetterReplayRpc,
  type EventEnvelope,
  type NumberStateChanged,
  type ServiceName,
} from '@switchboard/contracts';
import { testMessagingConfig, testNatsOptions } from '@switchboard/testing';
import { DEAD_LETTERS_STREAM, DeadLetterStore, REPLAY_OF_HEADER } from './dead-letters';
import { DurableEventPattern, JetStreamContext, RetryLater } from './jetstream.server';
import { eventSubject, streamName, type MessagingConfig } from './messaging.config';
import { MessagingModule } from './messaging.module';
import { NatsLink } from './nats-link';
import { RpcClient } from './rpc-client';
import { startMessaging } from './start-messaging';
import { NATS_LINK } from './tokens';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

// Each service as its own NATS user (the tests' server has the grants of BUS_GRANTS): calls-media consumes
// number.released and dead-letters it, the gateway reads the dead letters, numbers-billing (the stream's owner)
// replays them.
const prefix = `dlq${randomBytes(4).toString('hex')}`;
const DURABLE = 'calls-media-number-released';

/** What the consumer saw, and the test's hook deciding what each delivery does. */
@Injectable()
class Deliveries {
  readonly seen: { number: string; count: number; at: number; replayOf: string | undefined }[] = [];
  readonly handled: { number: string; id: string; at: number }[] = [];
  onEvent: (event: EventEnvelope<NumberStateChanged>, ctx: JetStreamContext) => Promise<void> = async () => undefined;
}

@Controller()
class PoisonConsumer {
  constructor(private readonly deliveries: Deliveries) {}

  @DurableEventPattern(NumberReleasedEvent, {
    durable: DURABLE,
    concurrency: 1,
    maxDeliver: 3,
    backoffMs: [300, 600],
    outageRetryMs: 50,
  })
  async released(@Payload() event: EventEnvelope<NumberStateChanged>, @Ctx() ctx: JetStreamContext): Promise<void> {
    const number = event.data.number_id;
    const replayOf = ctx.getMessage().headers?.get(REPLAY_OF_HEADER) || undefined;
    this.deliveries.seen.push({ number, count: ctx.deliveryCount, at: Date.now(), replayOf });
    await this.deliveries.onEvent(event, ctx);
    this.deliveries.handled.push({ number, id: event.id, at: Date.now() });
  }
}

/** A consumer whose handler can outlive its ack wait: such deliveries are charged too. */
@Controller()
class SlowConsumer {
  constructor(private readonly deliveries: Deliveries) {}

  @DurableEventPattern(NumberUpdatedEvent, {
    durable: 'calls-media-number-updated',
    concurrency: 4,
    ackWaitMs: 700,
    maxDeliver: 2,
    backoffMs: [100],
  })
  async updated(@Payload() event: EventEnvelope<NumberStateChanged>, @Ctx() ctx: JetStreamContext): Promise<void> {
    this.deliveries.seen.push({
      number: event.data.number_id,
      count: ctx.deliveryCount,
      at: Date.now(),
      replayOf: undefined,
    });
    await this.deliveries.onEvent(event, ctx);
  }
}

async function startService(
  service: ServiceName,
  parts: { controllers?: (new (...args: never[]) => unknown)[]; providers?: (new (...args: never[]) => unknown)[] },
  serve = true,
): Promise<INestApplication> {
  const config = testMessagingConfig(service, { prefix, requestTimeoutMs: 5000 });
  @Module({
    imports: [MessagingModule.forRoot({ service, logger, config, serve })],
    controllers: parts.controllers ?? [],
    providers: parts.providers ?? [],
  })
  class ServiceModule {}
  const app = await NestFactory.create(ServiceModule, new FastifyAdapter(), { logger: false, abortOnError: false });
  await app.init();
  await startMessaging(app, { requests: serve });
  return app;
}

function released(number: string): EventEnvelope<NumberStateChanged> {
  return {
    id: randomUUID(),
    type: NumberReleasedEvent.type,
    occurred_at: new Date().toISOString(),
    correlation_id: `req_${number}`,
    causation_id: null,
    data: {
      number_id: number,
      account_id: 'acct_0123456789abcdefghij',
      phone_number: '+14155550100',
      business_phone: '+14155550101',
      status: 'released',
      webhook_url: null,
      answering: false,
      version: '2',
      changed_at: new Date().toISOString(),
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const databaseDown = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });

describe('dead letters over a real NATS, each service as its own user', () => {
  let nc: NatsConnection;
  let consumer: INestApplication;
  let owner: INestApplication;
  let gateway: INestApplication;
  let store: DeadLetterStore;
  let deliveries: Deliveries;
  const superuser: MessagingConfig = { natsUrl: '', prefix, requestTimeoutMs: 5000 };

  const publish = async (envelope: object, id: string, traceparent?: string) => {
    const hdrs = headers();
    if (traceparent) hdrs.set('traceparent', traceparent);
    await jetstream(nc).publish(eventSubject(superuser, NumberReleasedEvent.type), JSON.stringify(envelope), {
      msgID: id,
      headers: hdrs,
    });
  };
  const letterOf = async (number: string) =>
    (await store.list(200)).data.find((letter) => letter.payload.includes(`"number_id":"${number}"`));

  beforeAll(async () => {
    nc = await connect(testNatsOptions());
    consumer = await startService('calls-media', {
      controllers: [PoisonConsumer, SlowConsumer],
      providers: [Deliveries],
    });
    owner = await startService('numbers-billing', {});
    gateway = await startService('gateway', {}, false);
    store = new DeadLetterStore(gateway.get<NatsLink>(NATS_LINK), testMessagingConfig('gateway', { prefix }));
    deliveries = consumer.get(Deliveries);
  });
  afterAll(async () => {
    await consumer?.close();
    await owner?.close();
    await gateway?.close();
    const jsm = await jetstreamManager(nc);
    for (const stream of [STREAMS.numbers.name, DEAD_LETTERS_STREAM]) {
      await jsm.streams.delete(streamName(superuser, stream)).catch(() => undefined);
    }
    await nc.close();
  });

  it('dead-letters a poison message after its 3 charged deliveries while the next is handled; a replay after the fix delivers it once', async () => {
    let fixed = false;
    deliveries.onEvent = async (event) => {
      if (event.data.number_id === 'num_101' && !fixed)
        throw new TypeError("Cannot read properties of undefined (reading 'e164')");
    };
    const poison = released('num_101');
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await publish(poison, poison.id, traceparent);
    const next = released('num_102');
    await publish(next, next.id);

    const letter = await until('the dead letter', () => letterOf('num_101'));
    // The next message did not wait for the poison one's retries.
    const nextHandled = deliveries.handled.find((h) => h.number === 'num_102');
    expect(nextHandled).toBeDefined();
    expect(nextHandled!.at).toBeLessThan(Date.parse(letter.dead_lettered_at));
    expect(deliveries.seen.filter((s) => s.number === 'num_101').map((s) => s.count)).toEqual([1, 2, 3]);
    expect(letter).toMatchObject({
      id: `${DURABLE}.${letter.stream_seq}`,
      durable: DURABLE,
      handler: 'PoisonConsumer.released',
      stream: streamName(superuser, STREAMS.numbers.name),
      subject: eventSubject(superuser, NumberReleasedEvent.type),
      event_id: poison.id,
      event_type: NumberReleasedEvent.type,
      error: "Cannot read properties of undefined (reading 'e164')",
      attempts: 3,
      deliveries: 3,
      replayed_at: null,
    });
    expect(JSON.parse(letter.payload)).toEqual(poison);
    expect(letter.headers.traceparent).toEqual([traceparent]);
    // Terminated once written: the consumer holds nothing back (the term follows the write by a moment).
    const jsm = await jetstreamManager(nc);
    await until('the consumer to settle', async () => {
      const info = await jsm.consumers.info(streamName(superuser, STREAMS.numbers.name), DURABLE);
      return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
    });
    await expect(store.show(letter.id)).resolves.toEqual(letter);

    // The fix is deployed; the operator replays, through the stream's owner, twice.
    fixed = true;
    const rpc = gateway.get(RpcClient);
    const first = await rpc.request(deadLetterReplayRpc('numbers-billing'), { dead_letter_id: letter.id });
    expect(first.republished).toBe(true);
    expect(first.dead_letter.replayed_at).not.toBeNull();
    await until('the replay handled', () => deliveries.handled.find((h) => h.number === 'num_101'));
    const second = await rpc.request(deadLetterReplayRpc('numbers-billing'), { dead_letter_id: letter.id });
    expect(second).toEqual({ dead_letter: first.dead_letter, republished: false });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Delivered once, with the event's own id (the consumers' idempotency holds) and the dead letter it replays.
    expect(deliveries.handled.filter((h) => h.number === 'num_101')).toEqual([
      { number: 'num_101', id: poison.id, at: expect.any(Number) },
    ]);
    expect(deliveries.seen.filter((s) => s.number === 'num_101').map((s) => s.replayOf)).toEqual([
      undefined,
      undefined,
      undefined,
      letter.id,
    ]);
    await expect(store.show(letter.id)).resolves.toMatchObject({ replayed_at: first.dead_letter.replayed_at });
    // Only the owner replays: the gateway cannot publish on numbers-billing's stream, nor calls-media answer for it.
    await expect(store.replay(letter.id, 'calls-media')).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('waits out a database outage and RetryLater without charging them to the message', async () => {
    // 4 outage deliveries and 2 RetryLater, then 2 handler failures: 8 deliveries, 2 charged (of 3 allowed).
    const script: (() => never)[] = [
      ...Array.from({ length: 4 }, () => () => {
        throw databaseDown();
      }),
      ...Array.from({ length: 2 }, () => () => {
        throw new RetryLater(50, 'not yet');
      }),
      ...Array.from({ length: 2 }, () => () => {
        throw new Error('flaky');
      }),
    ];
    deliveries.onEvent = async (event) => {
      if (event.data.number_id === 'num_201') script.shift()?.();
    };
    const event = released('num_201');
    await publish(event, event.id);
    await until('the event handled', () => deliveries.handled.find((h) => h.number === 'num_201'));
    expect(deliveries.seen.filter((s) => s.number === 'num_201').map((s) => s.count)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(await letterOf('num_201')).toBeUndefined();
  });

  it('dead-letters an event that fails validation at once, with the reason', async () => {
    const invalid = { ...released('num_301'), data: { number_id: 'num_301' } };
    await publish(invalid, invalid.id);
    const letter = await until('the dead letter', () => letterOf('num_301'));
    expect(letter).toMatchObject({ attempts: 1, deliveries: 1, event_id: invalid.id });
    expect(letter.error).toMatch(/^invalid event: /);
    expect(deliveries.seen.some((s) => s.number === 'num_301')).toBe(false);
  });

  it('charges the deliveries a handler never answers, and dead-letters the message before running it again', async () => {
    deliveries.onEvent = async (event) => {
      // Longer than the 700 ms ack wait: JetStream redelivers while the handler still runs.
      if (event.data.number_id === 'num_401') await new Promise((resolve) => setTimeout(resolve, 4000));
    };
    const event = { ...released('num_401'), type: NumberUpdatedEvent.type };
    await jetstream(nc).publish(eventSubject(superuser, NumberUpdatedEvent.type), JSON.stringify(event), {
      msgID: event.id,
    });
    const letter = await until('the dead letter', () => letterOf('num_401'));
    expect(letter).toMatchObject({
      durable: 'calls-media-number-updated',
      handler: 'SlowConsumer.updated',
      error: 'never answered within the ack wait',
      attempts: 2,
      deliveries: 3,
    });
    // The third delivery did not reach the handler.
    expect(deliveries.seen.filter((s) => s.number === 'num_401').map((s) => s.count)).toEqual([1, 2]);
  });

  it('lists the dead letters a page at a time, oldest first', async () => {
    const all = await store.list(200);
    expect(all.data.length).toBeGreaterThanOrEqual(2);
    const first = await store.list(1);
    expect(first).toEqual({ data: [all.data[0]], has_more: true });
    const rest = await store.list(200, first.data[0].id);
    expect(rest.data).toEqual(all.data.slice(1));
    expect(rest.has_more).toBe(false);
    await expect(store.show(`${DURABLE}.999999`)).rejects.toMatchObject({ code: 'not_found' });
  });
});
