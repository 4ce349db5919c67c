import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { IsString } from 'class-validator';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import { defineEvent } from '@switchboard/contracts';
import {
  TEST_SUPERUSER,
  createTestDatabase,
  testMessagingConfig,
  testNatsOptions,
  type TestDatabase,
} from '@switchboard/testing';
import { streamName, type MessagingConfig } from './messaging.config';
import { OutboxPublisher, outboxRecord, type OutboxDatabase } from './outbox';

// The outbox relay's tests, moved as they were from messaging.int-spec.ts (which now tests the Nest transports).
jest.setTimeout(30_000);

class ThingHappened {
  @IsString() thing_id: string;
}
const stream = { name: 'THINGS', types: 'thing.>' };
const ThingHappenedEvent = defineEvent('thing.happened', stream, ThingHappened);

/**
 * The relay's view of a database, over node-postgres: a transaction with `$kysely()` in it, as each app's Prisma client
 * gives (its `Transactions.run`, with libs/persistence's `kyselyExtension`); here Kysely's own transaction on `pg`.
 */
function pgClient(pool: Pool): OutboxDatabase {
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  return { run: (fn) => kysely.transaction().execute((trx) => fn({ $kysely: () => trx })) };
}

describe('outbox relay over a real NATS', () => {
  let config: MessagingConfig;
  let nc: NatsConnection;
  let db: TestDatabase;
  let pool: Pool;
  let relay: OutboxPublisher;

  beforeAll(async () => {
    config = testMessagingConfig(TEST_SUPERUSER, { prefix: `t${randomBytes(4).toString('hex')}` });
    nc = await connect(testNatsOptions());
    db = await createTestDatabase('messaging', { migrate: false });
    pool = new Pool({ connectionString: db.url, max: 4 });
    await pool.query(`CREATE TABLE outbox_events (id uuid PRIMARY KEY, type text NOT NULL, payload jsonb NOT NULL, headers jsonb NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(), published_at timestamptz(3))`);
    relay = new OutboxPublisher(pgClient(pool), nc, config, [stream], { batchSize: 2 });
  });
  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(streamName(config, stream.name)).catch(() => undefined);
    await nc.close();
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

  it('does not duplicate an event republished after a crash between publish and mark', async () => {
    const row = await insert('crash');
    await relay.drain();
    const after = await streamCount();
    // The crash: the row is published but the mark was lost.
    await pool.query('UPDATE outbox_events SET published_at = NULL WHERE id = $1', [row.id]);
    expect(await relay.drain()).toBe(1);
    expect(await streamCount()).toBe(after);
  });
});
