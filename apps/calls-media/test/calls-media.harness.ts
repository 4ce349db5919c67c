import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { jetstream, jetstreamManager, type StoredMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Subscription } from '@nats-io/transport-node';
import {
  STREAMS,
  ServiceNumberRpc,
  type EventDescriptor,
  type NumberStateChanged,
  type ServiceNumberQuery,
  type ServiceNumberStanding,
  type StreamDefinition,
} from '@switchboard/contracts';
import {
  ensureStream,
  eventSubject,
  rpcSubject,
  RpcClient,
  streamName,
  type MessagingConfig,
} from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { createTestDatabase, testNatsEnv, testNatsOptions, testNatsUrl, type TestDatabase } from '@switchboard/testing';
import { messagingConfigFromEnv } from '@switchboard/service-runtime';
import { createCallsMediaApp } from '../src/bootstrap';
import { anEnvelope } from './factories/number-state.factory';

/**
 * One integration test file's world: its own database, NATS prefix and DATA_DIR, calls-media booted on them
 * (as often as a test wants, e.g. to restart it), an RPC client speaking to it as the gateway does, and helpers
 * to publish numbers-billing's events and read the CALLS stream. numbers-billing's answer to the simulated provider's
 * question (is `to` in service?) is faked: every phone number is in service unless a test says otherwise
 * (`standings`), so calls-media's own attribution, of reports that reach it before the number's events, stays
 * testable through the simulated provider.
 */
export class CallsMediaWorld {
  readonly apps: INestApplicationContext[] = [];
  /** numbers-billing's standing of a phone number, when a test sets one; in service otherwise. */
  readonly standings = new Map<string, Omit<ServiceNumberStanding, 'phone_number'>>();
  private serviceNumbers: Subscription | undefined;

  private constructor(
    readonly db: TestDatabase,
    readonly prefix: string,
    readonly dataDir: string,
    readonly nc: NatsConnection,
    readonly messaging: MessagingConfig,
    readonly rpc: RpcClient,
  ) {}

  static async create(): Promise<CallsMediaWorld> {
    const db = await createTestDatabase('calls-media');
    const prefix = `t${randomBytes(5).toString('hex')}`;
    const dataDir = await mkdtemp(join(tmpdir(), 'sb-calls-media-'));
    const messaging = messagingConfigFromEnv({ NATS_URL: testNatsUrl(), NATS_SUBJECT_PREFIX: prefix });
    const nc = await connect(testNatsOptions());
    return new CallsMediaWorld(db, prefix, dataDir, nc, messaging, new RpcClient(nc, messaging));
  }

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      CALLS_MEDIA_DATABASE_URL: this.db.url,
      ...testNatsEnv('calls-media'),
      NATS_SUBJECT_PREFIX: this.prefix,
      DATA_DIR: this.dataDir,
      NODE_ENV: 'test',
      SIMULATED_CALL_SETTLE_MS: '2000',
      ...extra,
    };
  }

  async start(extra: Record<string, string> = {}): Promise<INestApplicationContext> {
    this.answerServiceNumbers();
    const app = await createCallsMediaApp(
      this.env(extra),
      createLogger('calls-media', process.env.TEST_LOG_LEVEL ?? 'silent'),
    );
    this.apps.push(app);
    return app;
  }

  /** Answers `numbers.v1.service-number.get` as numbers-billing's server would (`id`, `response`). */
  private answerServiceNumbers(): void {
    this.serviceNumbers ??= this.nc.subscribe(rpcSubject(this.messaging, ServiceNumberRpc.subject), {
      callback: (err, msg) => {
        if (err) return;
        const { id, data } = msg.json<{ id: string; data: ServiceNumberQuery }>();
        const standing = this.standings.get(data.phone_number) ?? { in_service: true, reason: null, held_since: null };
        msg.respond(
          JSON.stringify({ id, isDisposed: true, response: { phone_number: data.phone_number, ...standing } }),
        );
      },
    });
  }

  /** Publishes a number state as numbers-billing's relay would (message id = envelope id). */
  async publishNumberState(event: EventDescriptor<NumberStateChanged>, data: NumberStateChanged): Promise<void> {
    await this.publishNumberEvent(event, data);
  }

  /** Publishes any `number.*` event as numbers-billing's relay would (message id = envelope id). */
  async publishNumberEvent<T extends object>(event: EventDescriptor<T>, data: T): Promise<void> {
    await ensureStream(this.nc, this.messaging, STREAMS.numbers);
    const envelope = anEnvelope(event.type, data);
    await jetstream(this.nc).publish(eventSubject(this.messaging, event.type), JSON.stringify(envelope), {
      msgID: envelope.id,
    });
  }

  /** Every message of a stream of this prefix, oldest first (none when the stream does not exist). */
  async streamMessages(stream: StreamDefinition): Promise<StoredMsg[]> {
    const jsm = await jetstreamManager(this.nc);
    const name = streamName(this.messaging, stream.name);
    const info = await jsm.streams.info(name).catch(() => null);
    if (!info || info.state.messages === 0) return [];
    const messages: StoredMsg[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const msg = await jsm.streams.getMessage(name, { seq }).catch(() => null);
      if (msg) messages.push(msg);
    }
    return messages;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.apps.map((app) => app.close()));
    this.serviceNumbers?.unsubscribe();
    const jsm = await jetstreamManager(this.nc);
    const upper = `${this.prefix.toUpperCase()}_`;
    for await (const stream of jsm.streams.list()) {
      if (stream.config.name.startsWith(upper)) await jsm.streams.delete(stream.config.name);
    }
    await this.nc.close();
    await this.db.drop();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** Polls `check` until it stops throwing (for effects that cross NATS), then returns its value. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
