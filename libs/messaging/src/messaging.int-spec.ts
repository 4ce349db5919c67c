import { randomBytes, randomUUID } from 'node:crypto';
import { Controller, Injectable, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { IsInt, IsString, Min } from 'class-validator';
import pino from 'pino';
import {
  ServiceError,
  defineEvent,
  defineRpc,
  healthRpc,
  type EventEnvelope,
  type ServiceName,
} from '@switchboard/contracts';
import { TEST_SUPERUSER, testMessagingConfig, testNatsOptions } from '@switchboard/testing';
import { DurableEventPattern, JetStreamContext, RetryLater } from './jetstream.server';
import { eventSubject, streamName, type MessagingConfig } from './messaging.config';
import { MessagingModule } from './messaging.module';
import { RpcClient } from './rpc-client';
import { Caller, RpcPattern, type RpcContext } from './rpc-pattern.decorator';
import { startMessaging } from './start-messaging';

jest.setTimeout(30_000);
const logger = pino({ level: 'silent' });

class EchoRequest {
  @IsString() text: string;
  @IsInt() @Min(0) times: number;
}
const Echo = defineRpc<EchoRequest, { echoed: string; account: string | null }>('test.v1.echo', EchoRequest);
const Fail = defineRpc<EchoRequest, never>('test.v1.fail', EchoRequest);
const Crash = defineRpc<EchoRequest, never>('test.v1.crash', EchoRequest);
const Missing = defineRpc<EchoRequest, never>('test.v1.nobody', EchoRequest);
const Nothing = defineRpc<EchoRequest, undefined>('test.v1.nothing', EchoRequest);
const Slow = defineRpc<EchoRequest, { slept: number }>('test.v1.slow', EchoRequest);
const DatabaseDown = defineRpc<EchoRequest, never>('test.v1.database-down', EchoRequest);

/** How many echoes this replica answered. */
@Injectable()
class Answered {
  count = 0;
}

@Controller()
class EchoHandlers {
  constructor(private readonly answered: Answered) {}

  @RpcPattern(Echo)
  async echo(@Payload() request: EchoRequest, @Caller() ctx: RpcContext) {
    this.answered.count += 1;
    return { echoed: request.text.repeat(request.times), account: ctx.accountId ?? null };
  }

  @RpcPattern(Nothing)
  async nothing(): Promise<undefined> {
    return undefined;
  }

  @RpcPattern(Slow)
  async slow(@Payload() request: EchoRequest) {
    await new Promise((resolve) => setTimeout(resolve, request.times));
    return { slept: request.times };
  }

  @RpcPattern(Fail)
  async fail(): Promise<never> {
    throw new ServiceError('number_limit', 'The account already has 5 active numbers.');
  }

  @RpcPattern(Crash)
  async crash(): Promise<never> {
    throw new TypeError('a bug');
  }

  @RpcPattern(DatabaseDown)
  async databaseDown(): Promise<never> {
    // As node-postgres fails while PostgreSQL is down.
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
  }
}

class ThingHappened {
  @IsString() thing_id: string;
}
const stream = { name: 'THINGS', types: 'thing.>' };
const ThingHappenedEvent = defineEvent('thing.happened', stream, ThingHappened);

/** What the event handler saw, and a hook the test sets to decide what it does. */
@Injectable()
class Seen {
  readonly deliveries: { id: string; count: number }[] = [];
  onEvent: (event: EventEnvelope<ThingHappened>, ctx: JetStreamContext) => Promise<void> = async () => undefined;
}

@Controller()
class ThingHandlers {
  constructor(private readonly seen: Seen) {}

  @DurableEventPattern(ThingHappenedEvent, { durable: 'test-things', ackWaitMs: 2000, backoffMs: [50] })
  async thing(@Payload() event: EventEnvelope<ThingHappened>, @Ctx() ctx: JetStreamContext): Promise<void> {
    this.seen.deliveries.push({ id: event.data.thing_id, count: ctx.deliveryCount });
    await this.seen.onEvent(event, ctx);
  }
}

/** A service as the apps boot one: a Nest app (its HTTP side unused) with the message servers connected. */
async function startService(
  service: ServiceName,
  config: MessagingConfig,
  parts: { controllers?: (new (...args: never[]) => unknown)[]; providers?: (new (...args: never[]) => unknown)[] },
  serviceLogger = logger,
  serve = true,
): Promise<INestApplication> {
  @Module({
    imports: [MessagingModule.forRoot({ service, logger: serviceLogger, config, serve })],
    controllers: parts.controllers ?? [],
    providers: parts.providers ?? [],
  })
  class ServiceModule {}
  const app = await NestFactory.create(ServiceModule, new FastifyAdapter(), { logger: false, abortOnError: false });
  await app.init();
  await startMessaging(app, { requests: serve });
  return app;
}

describe('messaging over a real NATS', () => {
  let config: MessagingConfig;
  let nc: NatsConnection;

  beforeAll(async () => {
    // The library's mechanics on test subjects no service is granted: as the tests' superuser.
    config = testMessagingConfig(TEST_SUPERUSER, {
      prefix: `t${randomBytes(4).toString('hex')}`,
      requestTimeoutMs: 1000,
    });
    nc = await connect(testNatsOptions());
  });
  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(streamName(config, stream.name)).catch(() => undefined);
    await nc.close();
  });

  describe('request/reply', () => {
    let server: INestApplication;
    let client: INestApplication;
    let rpc: RpcClient;
    const serverLogs: { level: number; msg: string; [field: string]: unknown }[] = [];
    const serverLogger = pino({ level: 'info' }, { write: (line: string) => void serverLogs.push(JSON.parse(line)) });

    beforeAll(async () => {
      server = await startService(
        'numbers-billing',
        config,
        { controllers: [EchoHandlers], providers: [Answered] },
        serverLogger,
      );
      client = await startService('gateway', config, {}, logger, false);
      rpc = client.get(RpcClient);
    });
    afterAll(async () => {
      await client?.close();
      await server?.close();
    });

    it('answers a typed request and passes the account from the headers', async () => {
      await expect(rpc.request(Echo, { text: 'ab', times: 2 }, { accountId: 'acct_x' })).resolves.toEqual({
        echoed: 'abab',
        account: 'acct_x',
      });
      await expect(rpc.request(Nothing, { text: 'a', times: 1 })).resolves.toBeUndefined();
    });

    it('carries a service error back with its code', async () => {
      await expect(rpc.request(Fail, { text: 'a', times: 1 })).rejects.toMatchObject({
        code: 'number_limit',
        message: 'The account already has 5 active numbers.',
      });
    });

    it('validates the request on receipt, naming the field', async () => {
      await expect(rpc.request(Echo, { text: 'a', times: -1 })).rejects.toMatchObject({
        code: 'invalid_request',
        message: 'times must be at least 0',
      });
      await expect(rpc.request(Echo, { text: 'a', times: 1, admin: true } as EchoRequest)).rejects.toMatchObject({
        code: 'invalid_request',
        message: 'admin is not a known field',
      });
    });

    it('hides an unexpected error behind internal_error, and logs it', async () => {
      await expect(rpc.request(Crash, { text: 'a', times: 1 })).rejects.toMatchObject({
        code: 'internal_error',
        message: 'An unexpected error occurred.',
      });
      const logged = serverLogs.find((line) => line.msg === 'rpc handler failed');
      expect(logged).toMatchObject({ subject: `${config.prefix}.${Crash.subject}` });
      expect(JSON.stringify(logged)).toContain('a bug');
    });

    it('answers service_unavailable with Retry-After when the database is unreachable, and logs the outage once', async () => {
      for (let i = 0; i < 3; i++) {
        await expect(rpc.request(DatabaseDown, { text: 'a', times: 1 })).rejects.toMatchObject({
          code: 'service_unavailable',
          message: 'The numbers-billing database is unavailable; retry shortly.',
          retryAfter: 5,
        });
      }
      await rpc.request(Echo, { text: 'a', times: 1 });
      expect(serverLogs.filter((line) => line.msg === 'rpc handler failed' && line.subject !== undefined)).toEqual([
        expect.objectContaining({ subject: `${config.prefix}.${Crash.subject}` }),
      ]);
      expect(
        serverLogs.filter((line) => line.outage === 'database').map((line) => [line.msg, line.reason ?? line.failures]),
      ).toEqual([
        [
          'database unavailable: answering 503 until it recovers (logged once per incident)',
          'connect ECONNREFUSED 127.0.0.1:5432',
        ],
        ['database available again', 3],
      ]);
    });

    it('answers service_unavailable when nobody serves the subject, and when the service does not answer in time', async () => {
      await expect(rpc.request(Missing, { text: 'a', times: 1 })).rejects.toMatchObject({
        code: 'service_unavailable',
        message: `No service is answering ${Missing.subject}; retry shortly.`,
      });
      await expect(rpc.request(Slow, { text: 'a', times: 300 }, { timeoutMs: 100 })).rejects.toMatchObject({
        code: 'service_unavailable',
        message: `The service behind ${Slow.subject} did not answer in time; retry shortly.`,
      });
    });

    it('shares requests between the replicas of a service (one queue group)', async () => {
      const replica = await startService('numbers-billing', config, {
        controllers: [EchoHandlers],
        providers: [Answered],
      });
      try {
        const before = server.get(Answered).count;
        await Promise.all(Array.from({ length: 40 }, () => rpc.request(Echo, { text: 'a', times: 1 })));
        const counts = [server.get(Answered).count - before, replica.get(Answered).count];
        expect(counts[0] + counts[1]).toBe(40);
        expect(counts.every((count) => count > 0)).toBe(true);
      } finally {
        await replica.close();
      }
    });

    it('answers the service health subject', async () => {
      await expect(rpc.request(healthRpc('numbers-billing'), {})).resolves.toEqual({
        service: 'numbers-billing',
        status: 'ok',
      });
    });

    it('finishes the requests in flight when the service closes, then takes no more', async () => {
      const closing = await startService('numbers-billing', config, {
        controllers: [EchoHandlers],
        providers: [Answered],
      });
      await server.close();
      try {
        const inFlight = rpc.request(Slow, { text: 'a', times: 400 }, { timeoutMs: 5000 });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await closing.close();
        await expect(inFlight).resolves.toEqual({ slept: 400 });
        await expect(rpc.request(Slow, { text: 'a', times: 1 })).rejects.toMatchObject({
          code: 'service_unavailable',
        });
      } finally {
        server = await startService(
          'numbers-billing',
          config,
          { controllers: [EchoHandlers], providers: [Answered] },
          serverLogger,
        );
      }
    });
  });

  describe('durable events', () => {
    it('delivers to a durable consumer at least once: a failed handler gets the event again, an invalid one is dropped', async () => {
      const publish = async (body: object, id: string) =>
        jetstream(nc).publish(eventSubject(config, ThingHappenedEvent.type), JSON.stringify(body), { msgID: id });
      const app = await startService('numbers-billing', config, {
        controllers: [ThingHandlers],
        providers: [Seen],
      });
      try {
        const seen = app.get(Seen);
        let failOnce = true;
        const done = new Promise<void>((resolve) => {
          seen.onEvent = async (event) => {
            if (event.data.thing_id === 'retry' && failOnce) {
              failOnce = false;
              throw new RetryLater(50, 'try again');
            }
            if (event.data.thing_id === 'retry') resolve();
          };
        });
        await publish({ id: 'bad', type: 'thing.happened', data: { nope: 1 } }, 'bad');
        const envelope: EventEnvelope<ThingHappened> = {
          id: randomUUID(),
          type: ThingHappenedEvent.type,
          occurred_at: new Date().toISOString(),
          correlation_id: 'req_retry',
          causation_id: null,
          data: { thing_id: 'retry' },
        };
        await publish(envelope, envelope.id);
        await done;
        expect(seen.deliveries.filter((s) => s.id === 'retry').map((s) => s.count)).toEqual([1, 2]);
        expect(seen.deliveries.some((s) => s.id === undefined)).toBe(false);
        const jsm = await jetstreamManager(nc);
        const info = await jsm.consumers.info(streamName(config, stream.name), 'test-things');
        expect(info.num_pending).toBe(0);
      } finally {
        await app.close();
      }
    });
  });
});
