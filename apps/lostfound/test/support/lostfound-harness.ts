import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { LocationsRpc, ServiceError, STREAMS, type EventEnvelope, type RpcDescriptor } from '@switchboard/contracts';
import { RpcClient, streamName, type MessagingConfig } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { createTestDatabase, testNatsEnv, testNatsOptions, testNatsUrl, type TestDatabase } from '@switchboard/testing';
import { Client } from 'pg';
import { createLostfoundApp } from '../../src/bootstrap';
import { newAccountId } from '../factories/account.factory';

/**
 * lostfound booted alone for integration tests: its own PostgreSQL database (migrations applied), its own NATS
 * subject prefix, and an RPC client that sends requests as the gateway would, with the account header.
 */
export interface LostfoundUnderTest {
  app: INestApplicationContext;
  db: TestDatabase;
  prefix: string;
  /** Sends a request for an account (the gateway's header); resolves the reply or rejects with the ServiceError. */
  send<Req extends object, Res>(rpc: RpcDescriptor<Req, Res>, payload: Req, accountId?: string): Promise<Res>;
  /** The error code a request is answered with (fails the test when it succeeds). */
  errorOf<Req extends object, Res>(rpc: RpcDescriptor<Req, Res>, payload: Req, accountId?: string): Promise<string>;
  /** An account id and a location of it with lost-and-found enabled (or as asked). */
  newLocation(options?: {
    accountId?: string;
    lostfound_enabled?: boolean;
  }): Promise<{ accountId: string; locationId: number }>;
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** The events on the LOSTFOUND stream of this prefix, oldest first. */
  events(): Promise<EventEnvelope<Record<string, unknown>>[]>;
  stop(): Promise<void>;
}

export async function startLostfound(env: Record<string, string> = {}): Promise<LostfoundUnderTest> {
  const db = await createTestDatabase('lostfound');
  const prefix = `t${randomBytes(5).toString('hex')}`;
  let app: INestApplicationContext | undefined;
  let nc: NatsConnection | undefined;
  const pg = new Client({ connectionString: db.url });
  try {
    app = await createLostfoundApp(
      {
        ...process.env,
        ...testNatsEnv('lostfound'),
        LOSTFOUND_DATABASE_URL: db.url,
        NATS_SUBJECT_PREFIX: prefix,
        NODE_ENV: 'test',
        ...env,
      },
      createLogger('lostfound', process.env.TEST_LOG_LEVEL ?? 'silent'),
    );
    nc = await connect(testNatsOptions());
    await pg.connect();
  } catch (error) {
    await app?.close();
    await nc?.close();
    await db.drop();
    throw error;
  }
  const connection = nc;
  const config: MessagingConfig = { natsUrl: testNatsUrl(), prefix, requestTimeoutMs: 15_000 };
  const rpc = new RpcClient(connection, config);

  const send: LostfoundUnderTest['send'] = (descriptor, payload, accountId) =>
    rpc.request(descriptor, payload, { accountId });
  const harness: LostfoundUnderTest = {
    app,
    db,
    prefix,
    send,
    async errorOf(descriptor, payload, accountId) {
      try {
        await send(descriptor, payload, accountId);
      } catch (error) {
        if (error instanceof ServiceError) return error.code;
        throw error;
      }
      throw new Error(`${descriptor.subject} succeeded; an error was expected`);
    },
    async newLocation(options = {}) {
      const accountId = options.accountId ?? newAccountId();
      const location = await send(LocationsRpc.create, {
        account_id: accountId,
        name: `Location ${randomBytes(2).toString('hex')}`,
        lostfound_enabled: options.lostfound_enabled ?? true,
      });
      return { accountId, locationId: location.id };
    },
    async sql<T>(text: string, values: unknown[] = []) {
      return (await pg.query(text, values)).rows as T[];
    },
    async events() {
      const jsm = await jetstreamManager(connection);
      const name = streamName(config, STREAMS.lostfound.name);
      const info = await jsm.streams.info(name);
      const found: EventEnvelope<Record<string, unknown>>[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
        const message = await jsm.streams.getMessage(name, { seq });
        if (message) found.push(message.json());
      }
      return found;
    },
    async stop() {
      await app.close();
      await pg.end().catch(() => undefined);
      await deleteStreams(connection, prefix);
      await connection.close();
      await db.drop();
    },
  };
  return harness;
}

async function deleteStreams(nc: NatsConnection, prefix: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const start = `${prefix.toUpperCase()}_`;
  for await (const stream of jsm.streams.list()) {
    if (stream.config.name.startsWith(start)) await jsm.streams.delete(stream.config.name);
  }
}

/** Polls until `check` returns a value (or the time is up): for what a relay or a notifier does after a reply. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
