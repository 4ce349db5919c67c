import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  CallCompletedEvent,
  STREAMS,
  type BalanceLowData,
  type CallCompletedData,
  type EventEnvelope,
  type NumberStateChanged,
  type RpcDescriptor,
  type StreamDefinition,
  type TopUpFailedData,
} from '@switchboard/contracts';
import { RpcClient, eventSubject, streamName, type MessagingConfig } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { createTestDatabase, testNatsEnv, testNatsOptions, type TestDatabase } from '@switchboard/testing';
import { messagingConfigFromEnv } from '@switchboard/service-runtime';
import { createNumbersBillingApp } from '../../src/bootstrap';
import { NumbersBillingPrisma } from '../../src/prisma/numbers-billing-prisma';

/**
 * numbers-billing booted as the e2e harness boots it, on a fresh PostgreSQL database and its own NATS subject
 * prefix, with a client that speaks to it over NATS as the gateway does.
 */
export interface NumbersBillingHarness {
  app: INestApplicationContext;
  prisma: InstanceType<typeof NumbersBillingPrisma>;
  env: NodeJS.ProcessEnv;
  config: MessagingConfig;
  db: TestDatabase;
  nc: NatsConnection;
  /** A request as the gateway sends it; `accountId` is the authenticated caller. */
  request<Req extends object, Res>(rpc: RpcDescriptor<Req, Res>, payload: Req, accountId?: string): Promise<Res>;
  /** Publishes a `call.completed` to JetStream as calls-media would (message id = envelope id). */
  publishCallCompleted(data: CallCompletedData, envelopeId?: string): Promise<void>;
  /** Every event in the NUMBERS stream so far, oldest first. */
  numberEvents(): Promise<EventEnvelope<NumberStateChanged>[]>;
  /** Every event in the BILLING stream so far (`billing.balance_low`, `billing.top_up_failed`), oldest first. */
  billingEvents(): Promise<EventEnvelope<BalanceLowData | TopUpFailedData>[]>;
  stop(): Promise<void>;
}

export function testEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Boot on this database (another instance's, e.g. to restart with new settings); it is not dropped on stop. */
  database?: TestDatabase;
}

export async function startNumbersBilling(options: StartOptions = {}): Promise<NumbersBillingHarness> {
  const extraEnv = options.env ?? {};
  const db = options.database ?? (await createTestDatabase('numbers-billing'));
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    ...testNatsEnv('numbers-billing'),
    NATS_SUBJECT_PREFIX: prefix,
    NUMBERS_BILLING_DATABASE_URL: db.url,
    SECRETS_ENCRYPTION_KEY: testEncryptionKey(),
    ...extraEnv,
  };
  let app: INestApplicationContext | undefined;
  let nc: NatsConnection | undefined;
  const stop = async () => {
    await app?.close().catch(() => undefined);
    if (nc && !nc.isClosed()) {
      await deleteStreams(nc, prefix).catch(() => undefined);
      await nc.close();
    }
    if (!options.database) await db.drop();
  };
  try {
    app = await createNumbersBillingApp(env, createLogger('numbers-billing', process.env.TEST_LOG_LEVEL ?? 'silent'));
    nc = await connect(testNatsOptions());
    const config = messagingConfigFromEnv(env);
    const rpc = new RpcClient(nc, config);
    const connection = nc;
    return {
      app,
      prisma: app.get(NumbersBillingPrisma),
      env,
      config,
      db,
      nc,
      request: (rpcDescriptor, payload, accountId) =>
        rpc.request(rpcDescriptor, payload, { accountId, requestId: `req_${randomUUID()}`, timeoutMs: 30_000 }),
      async publishCallCompleted(data, envelopeId = randomUUID()) {
        const envelope: EventEnvelope<CallCompletedData> = {
          id: envelopeId,
          type: CallCompletedEvent.type,
          occurred_at: new Date().toISOString(),
          correlation_id: data.call_sid,
          causation_id: null,
          data,
        };
        await jetstream(connection).publish(eventSubject(config, CallCompletedEvent.type), JSON.stringify(envelope), {
          msgID: envelopeId,
        });
      },
      numberEvents: () => streamEvents<NumberStateChanged>(connection, config, STREAMS.numbers),
      billingEvents: () => streamEvents<BalanceLowData | TopUpFailedData>(connection, config, STREAMS.billing),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function streamEvents<T>(
  nc: NatsConnection,
  config: MessagingConfig,
  stream: StreamDefinition,
): Promise<EventEnvelope<T>[]> {
  const jsm = await jetstreamManager(nc);
  const name = streamName(config, stream.name);
  const info = await jsm.streams.info(name).catch(() => null);
  const events: EventEnvelope<T>[] = [];
  if (!info) return events;
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const message = await jsm.streams.getMessage(name, { seq }).catch(() => null);
    if (message) events.push(message.json<EventEnvelope<T>>());
  }
  return events;
}

async function deleteStreams(nc: NatsConnection, prefix: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const upper = `${prefix.toUpperCase()}_`;
  for await (const stream of jsm.streams.list()) {
    if (stream.config.name.startsWith(upper)) await jsm.streams.delete(stream.config.name);
  }
}

/** Polls `probe` until `accept` is true (events travel through the outbox relay and JetStream asynchronously). */
export async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await probe();
  while (!accept(last)) {
    if (Date.now() > deadline) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await probe();
  }
  return last;
}

/** Balance and ledger sum of an account, read in one statement. */
export async function balanceAndLedgerSum(
  prisma: NumbersBillingHarness['prisma'],
  accountId: string,
): Promise<{ balance: bigint; ledgerSum: bigint }> {
  const [row] = await prisma.$queryRaw<{ balance: bigint; ledger_sum: bigint }[]>`
    SELECT a.balance_millicents AS balance,
           COALESCE((SELECT SUM(amount_millicents) FROM ledger_entries l WHERE l.account_id = a.id), 0)::bigint AS ledger_sum
      FROM accounts a WHERE a.id = ${accountId}`;
  return { balance: row.balance, ledgerSum: row.ledger_sum };
}
