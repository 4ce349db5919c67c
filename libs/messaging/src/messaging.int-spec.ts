import { randomBytes } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { IsInt, IsString, Min } from 'class-validator';
import { Pool } from 'pg';
import pino from 'pino';
import { ServiceError, defineEvent, defineRpc, type EventEnvelope } from '@switchboard/contracts';
import {
  TEST_SUPERUSER,
  createTestDatabase,
  testMessagingConfig,
  testNatsOptions,
  type TestDatabase,
} from '@switchboard/testing';
import { createSqlPool, type DatabaseDriver } from '@switchboard/persistence';
import { EventConsumer, RetryLater } from './event-consumer';
import { MessagingModule } from './messaging.module';
import { streamName, type MessagingConfig } from './messaging.config';
import { OutboxPublisher, outboxRecord, type RawSqlClient, type TransactionalSqlClient } from './outbox';
import { RpcClient } from './rpc-client';
import { RpcHandler, type RpcContext } from './rpc-handler.decorator';

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
const Listed = defineRpc<EchoRequest, { data: { text: string }[]; has_more: boolean }>('test.v1.list', EchoRequest);
const Nothing = defineRpc<EchoRequest, undefined>('test.v1.nothing', EchoRequest);
const DatabaseDown = defineRpc<EchoRequest, never>('test.v1.database-down', EchoRequest);

@Injectable()
class EchoHandlers {
  @RpcHandler(Echo)
  async echo(request: EchoRequest, ctx: RpcContext) {
    return { echoed: request.text.repeat(request.times), account: ctx.accountId ?? null };
  }

  @RpcHandler(Listed)
  async list(request: EchoRequest) {
    return { data: Array.from({ length: request.times }, () => ({ text: request.text })), has_more: false };
  }

  @RpcHandler(Nothing)
  async nothing(): Promise<undefined> {
    return undefined;
  }

  @RpcHandler(Fail)
  async fail(): Promise<never> {
    throw new ServiceError('number_limit', 'The account already has 5 active numbers.');
  }

  @RpcHandler(Crash)
  async crash(): Promise<never> {
    throw new TypeError('a bug');
  }

  @RpcHandler(DatabaseDown)
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

/** The relay's view of a database, over node-postgres (each app gives it its Prisma client instead). */
function pgClient(pool: Pool): TransactionalSqlClient {
  const raw = (
    run: (q: string, v: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>,
  ): RawSqlClient => ({
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await run(query, values)).rows as T,
    $executeRawUnsafe: async (query: string, ...values: unknown[]) => (await run(query, values)).rowCount ?? 0,
  });
  return {
    ...raw((q, v) => pool.query(q, v)),
    async $transaction<R>(fn: (tx: RawSqlClient) => Promise<R>): Promise<R> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(raw((q, v) => client.query(q, v)));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
  };
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
    let server: INestApplicationContext;
    let client: INestApplicationContext;
    let rpc: RpcClient;
    const serverLogs: { level: number; msg: string; [field: string]: unknown }[] = [];
    const serverLogger = pino({ level: 'info' }, { write: (line: string) => void serverLogs.push(JSON.parse(line)) });

    beforeAll(async () => {
      @Module({
        imports: [MessagingModule.forRoot({ service: 'numbers-billing', logger: serverLogger, config })],
        providers: [EchoHandlers],
      })
      class ServerModule {}
      @Module({ imports: [MessagingModule.forRoot({ service: 'gateway', logger, config, serve: false })] })
      class ClientModule {}
      server = await NestFactory.createApplicationContext(ServerModule, { logger: false });
      await server.init();
      client = await NestFactory.createApplicationContext(ClientModule, { logger: false });
      await client.init();
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
    });

    it("passes a reply on as the service's JSON, livemode set by the service when asked", async () => {
      const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
      const asked = { text: 'a"\u00e9', times: 2 };
      expect(text(await rpc.requestJson(Listed, asked, { livemode: false }))).toBe(
        JSON.stringify({
          data: [
            { text: 'a"\u00e9', livemode: false },
            { text: 'a"\u00e9', livemode: false },
          ],
          has_more: false,
          livemode: false,
        }),
      );
      expect(await rpc.request(Listed, asked, { livemode: true })).toEqual({
        data: [
          { text: 'a"\u00e9', livemode: true },
          { text: 'a"\u00e9', livemode: true },
        ],
        has_more: false,
        livemode: true,
      });
      // Without the header the reply is the handler's.
      expect(JSON.parse(text(await rpc.requestJson(Listed, asked)))).toEqual({
        data: [{ text: 'a"\u00e9' }, { text: 'a"\u00e9' }],
        has_more: false,
      });
      expect(text(await rpc.requestJson(Nothing, asked))).toBe('null');
      await expect(rpc.requestJson(Fail, asked)).rejects.toMatchObject({ code: 'number_limit' });
      await expect(rpc.requestJson(Listed, { text: 'a', times: -1 })).rejects.toMatchObject({
        code: 'invalid_request',
      });
    });

    it('carries a service error back with its code', async () => {
      await expect(rpc.request(Fail, { text: 'a', times: 1 })).rejects.toMatchObject({
        code: 'number_limit',
        message: 'The account already has 5 active numbers.',
      });
    });

    it('validates the request on receipt', async () => {
      await expect(rpc.request(Echo, { text: 'a', times: -1 })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(rpc.request(Echo, { text: 'a', times: 1, admin: true } as EchoRequest)).rejects.toMatchObject({
        code: 'invalid_request',
      });
    });

    it('hides an unexpected error behind internal_error', async () => {
      await expect(rpc.request(Crash, { text: 'a', times: 1 })).rejects.toMatchObject({
        code: 'internal_error',
        message: 'An unexpected error occurred.',
      });
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
      expect(
        serverLogs.filter((line) => line.msg === 'rpc handler failed' && line.subject === DatabaseDown.subject),
      ).toEqual([]);
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

    it('answers service_unavailable when nobody serves the subject', async () => {
      await expect(rpc.request(Missing, { text: 'a', times: 1 })).rejects.toMatchObject({
        code: 'service_unavailable',
      });
    });

    it('answers the service health subject', async () => {
      const reply = await nc.request(`${config.prefix}.health.v1.numbers-billing`, '{}', { timeout: 1000 });
      expect(reply.json()).toEqual({ ok: true, data: { service: 'numbers-billing', status: 'ok' } });
    });
  });

  describe('outbox relay and durable consumer', () => {
    let db: TestDatabase;
    let pool: Pool;
    let relay: OutboxPublisher;

    beforeAll(async () => {
      db = await createTestDatabase('messaging', { migrate: false });
      pool = new Pool({ connectionString: db.url, max: 4 });
      await pool.query(`CREATE TABLE outbox_events (id uuid PRIMARY KEY, type text NOT NULL, payload jsonb NOT NULL, headers jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(), published_at timestamptz(3))`);
      relay = new OutboxPublisher(pgClient(pool), nc, config, [stream], { batchSize: 2 });
    });
    afterAll(async () => {
      await pool?.end();
      await db?.drop();
    });

    async function insert(thingId: string) {
      const row = outboxRecord(ThingHappenedEvent, { thing_id: thingId }, { correlationId: `req_${thingId}` });
      await pool.query('INSERT INTO outbox_events (id, type, payload, headers) VALUES ($1, $2, $3, $4)', [
        row.id,
        row.type,
        row.payload,
        row.headers,
      ]);
      return row;
    }

    async function streamCount(): Promise<number> {
      const jsm = await jetstreamManager(nc);
      return (await jsm.streams.info(streamName(config, stream.name))).state.messages;
    }

    it('publishes committed rows once each, in batches, and marks them published', async () => {
      await relay.ensureStreams();
      const before = await streamCount();
      for (const id of ['a', 'b', 'c', 'd', 'e']) await insert(id);
      expect(await relay.drain()).toBe(5);
      expect(await relay.drain()).toBe(0);
      expect(await streamCount()).toBe(before + 5);
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL');
      expect(rows[0].n).toBe(0);
    });

    it("publishes the same way through one of the app's plain-SQL pools (calls-media's relay)", async () => {
      const driver = { location: { kind: 'postgres', url: db.url } } as Pick<DatabaseDriver, 'location'>;
      const sqlPool = createSqlPool(driver as DatabaseDriver, pgClient(pool), { max: 1, applicationName: 'relay' });
      try {
        const pooled = new OutboxPublisher(sqlPool, nc, config, [stream], { batchSize: 2 });
        const before = await streamCount();
        for (const id of ['p1', 'p2', 'p3']) await insert(id);
        expect(await pooled.drain()).toBe(3);
        expect(await pooled.drain()).toBe(0);
        expect(await streamCount()).toBe(before + 3);
        const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL');
        expect(rows[0].n).toBe(0);
      } finally {
        await sqlPool.close();
      }
    });

    it('does not duplicate an event republished after a crash between publish and mark', async () => {
      const row = await insert('crash');
      await relay.drain();
      const after = await streamCount();
      // The crash: the row is published but the mark was lost.
      await pool.query('UPDATE outbox_events SET published_at = NULL WHERE id = $1', [row.id]);
      expect(await relay.drain()).toBe(1);
      expect(await streamCount()).toBe(after);
    });

    it('delivers to a durable consumer at least once: a failed handler gets the event again, an invalid one is dropped', async () => {
      const seen: { id: string; count: number }[] = [];
      let failOnce = true;
      let consumer!: EventConsumer<ThingHappened>;
      const done = new Promise<void>((resolve) => {
        consumer = new EventConsumer(
          nc,
          config,
          {
            event: ThingHappenedEvent,
            durable: 'test-things',
            ackWaitMs: 2000,
            retryDelayMs: 50,
            handler: async (event: EventEnvelope<ThingHappened>, meta) => {
              seen.push({ id: event.data.thing_id, count: meta.deliveryCount });
              if (event.data.thing_id === 'retry' && failOnce) {
                failOnce = false;
                throw new RetryLater(50, 'try again');
              }
              if (event.data.thing_id === 'retry') resolve();
            },
          },
          logger,
        );
        void consumer.start();
      });
      await nc.publish(
        `${config.prefix}.events.v1.thing.happened`,
        JSON.stringify({ id: 'bad', type: 'thing.happened', data: { nope: 1 } }),
      );
      await insert('retry');
      await relay.drain();
      await done;
      await consumer.stop();
      const retries = seen.filter((s) => s.id === 'retry');
      expect(retries.map((s) => s.count)).toEqual([1, 2]);
      expect(seen.some((s) => s.id === undefined)).toBe(false);
    });
  });
});
