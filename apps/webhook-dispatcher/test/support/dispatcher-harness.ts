import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  CallCompletedEvent,
  ServiceError,
  WebhookDeliveriesRpc,
  type RpcDescriptor,
  type CallCompletedData,
  type EventEnvelope,
  type WebhookDeliveryAttemptView,
  type WebhookDeliveryList,
} from '@switchboard/contracts';
import type { Resolver } from '@switchboard/egress';
import { RpcClient, ensureStream, eventSubject } from '@switchboard/messaging';
import { createLogger, type Logger } from '@switchboard/observability';
import { testNatsEnv, testNatsOptions, type TestDatabase } from '@switchboard/testing';
import { messagingConfigFromEnv } from '@switchboard/service-runtime';
import { Client } from 'pg';
import { createWebhookDispatcherApp } from '../../src/bootstrap';
import { FakeNumbersBilling } from './fake-numbers-billing';

/** A reply as the test reads it: the answer, or the refusal the service answered. */
export type RpcOutcome<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

/** Settings that keep the tests quick; each is a documented variable. */
export const FAST_SETTINGS = {
  WEBHOOK_BACKOFF_BASE_MS: '100',
  WEBHOOK_TIMEOUT_MS: '2000',
  NATS_REQUEST_TIMEOUT_MS: '1000',
};

export interface DispatcherHarness {
  prefix: string;
  /** The environment a dispatcher of this harness runs with. */
  env: NodeJS.ProcessEnv;
  nc: NatsConnection;
  numbersBilling: FakeNumbersBilling;
  /** Boots a dispatcher instance in this process (closed by `close()` unless stopped before). */
  startDispatcher(options?: {
    env?: Record<string, string>;
    resolver?: Resolver;
    logger?: Logger;
  }): Promise<INestApplicationContext>;
  /** Closes one dispatcher instance the way SIGTERM does (Nest's shutdown hooks). */
  stopDispatcher(app: INestApplicationContext): Promise<void>;
  /** Publishes a `call.completed` envelope to JetStream as calls-media's outbox relay does (message id = event id). */
  publish(event: EventEnvelope<CallCompletedData>, options?: { msgId?: string }): Promise<void>;
  /** The operator's view (`WebhookDeliveriesRpc.list`), newest first. */
  deliveryLog(numberId: string): Promise<WebhookDeliveryAttemptView[]>;
  /** Sends a request to the dispatcher as the gateway does, for `accountId`; resolves to the reply. */
  rpc<Req extends object, Res>(
    descriptor: RpcDescriptor<Req, Res>,
    request: Req,
    accountId: string,
    timeoutMs?: number,
  ): Promise<RpcOutcome<Res>>;
  /** Runs SQL on the dispatcher's database (to set up rows older code would have written). */
  sql(text: string, values?: unknown[]): Promise<void>;
  /** A delivery's row, read straight from the dispatcher's database. */
  delivery(eventId: string): Promise<{ status: string; attempts: number } | undefined>;
  /** An event's attempt rows, oldest first, read straight from the database (no dispatcher needed). */
  attempts(eventId: string): Promise<{ attempt: number; status_code: number | null; error: string | null }[]>;
  /** Polls until `check` returns a value other than undefined/false. */
  eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/**
 * One webhook-dispatcher test setup: its own NATS subject prefix (own streams), a fake numbers-billing,
 * dispatchers on a test database. The database is the caller's (one per test file).
 */
export async function createDispatcherHarness(
  database: TestDatabase,
  extraEnv: Record<string, string> = {},
): Promise<DispatcherHarness> {
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    ...testNatsEnv('webhook-dispatcher'),
    NATS_SUBJECT_PREFIX: prefix,
    WEBHOOK_DISPATCHER_DATABASE_URL: database.url,
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '',
    ...FAST_SETTINGS,
    ...extraEnv,
  };
  const messaging = messagingConfigFromEnv(env);
  const nc = await connect({ ...testNatsOptions(), name: `test-${prefix}` });
  await ensureStream(nc, messaging, CallCompletedEvent.stream);
  const numbersBilling = new FakeNumbersBilling(nc, prefix).start();
  const client = new RpcClient(nc, messaging);
  const apps = new Set<INestApplicationContext>();
  const db = new Client({ connectionString: database.url });
  await db.connect();

  const harness: DispatcherHarness = {
    prefix,
    env,
    nc,
    numbersBilling,
    async startDispatcher(options = {}) {
      const logger = options.logger ?? createLogger('webhook-dispatcher', process.env.TEST_LOG_LEVEL ?? 'silent');
      const app = await createWebhookDispatcherApp({ ...env, ...options.env }, logger, { resolver: options.resolver });
      apps.add(app);
      return app;
    },
    async stopDispatcher(app) {
      apps.delete(app);
      await app.close();
    },
    async publish(event, options = {}) {
      await jetstream(nc).publish(eventSubject(messaging, CallCompletedEvent.type), JSON.stringify(event), {
        msgID: options.msgId ?? event.id,
      });
    },
    async deliveryLog(numberId) {
      const log: WebhookDeliveryList = await client.request(
        WebhookDeliveriesRpc.list,
        { number_id: numberId },
        { timeoutMs: 5000 },
      );
      return log.data;
    },
    async rpc(descriptor, request, accountId, timeoutMs = 5000) {
      try {
        return { ok: true, data: await client.request(descriptor, request, { accountId, timeoutMs }) };
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        return { ok: false, error: { code: error.code, message: error.message } };
      }
    },
    async sql(text, values = []) {
      await db.query(text, values);
    },
    async delivery(eventId) {
      const { rows } = await db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM webhook_deliveries WHERE event_id = $1',
        [eventId],
      );
      return rows[0];
    },
    async attempts(eventId) {
      const { rows } = await db.query<{ attempt: number; status_code: number | null; error: string | null }>(
        'SELECT attempt, status_code, error FROM webhook_attempts WHERE event_id = $1 ORDER BY id',
        [eventId],
      );
      return rows;
    },
    async eventually(check, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      await Promise.allSettled([...apps].map((app) => app.close()));
      numbersBilling.stop();
      await deleteStreams(nc, prefix);
      await nc.drain().catch(() => nc.close());
      await db.end();
    },
  };
  return harness;
}

async function deleteStreams(nc: NatsConnection, prefix: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const mine = `${prefix.toUpperCase().replace(/-/g, '_')}_`;
  for await (const stream of jsm.streams.list()) {
    if (stream.config.name.startsWith(mine)) await jsm.streams.delete(stream.config.name);
  }
}
