import { randomUUID } from 'node:crypto';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { SpanKind, context, trace } from '@opentelemetry/api';
import type { EventDescriptor, EventEnvelope, StreamDefinition } from '@switchboard/contracts';
import { Metrics } from '@switchboard/observability';
import { eventSubject, type MessagingConfig } from './messaging.config';
import { sql, type QueryExecutorProvider } from 'kysely';
import { ensureStream } from './jetstream';
import { contextFromRecord, traceRecord } from './trace-context';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * A row of an app's `outbox_events` table (each app's Prisma schema has the same model). `payload` is the
 * event envelope as plain JSON, so it goes into a Prisma `Json` column as it is.
 */
export interface OutboxRow {
  id: string;
  type: string;
  payload: JsonObject;
  headers: Record<string, string>;
}

export interface EventCause {
  correlationId: string;
  causationId?: string | null;
  /**
   * A deterministic event id (e.g. derived from a call SID), so the same fact reported twice is one event to
   * JetStream's de-duplication and to consumers. Default: a random UUID.
   */
  id?: string;
}

/**
 * The outbox row for an event, to be inserted in the same transaction as the state change it reports. The
 * trace context of the writer is kept with it so the relay and consumers continue the same trace.
 */
export function outboxRecord<T extends object>(event: EventDescriptor<T>, data: T, cause: EventCause): OutboxRow {
  const id = cause.id ?? randomUUID();
  const envelope: EventEnvelope<T> = {
    id,
    type: event.type,
    occurred_at: new Date().toISOString(),
    correlation_id: cause.correlationId,
    causation_id: cause.causationId ?? null,
    data,
  };
  // Through JSON once: what is stored is exactly what consumers will parse (dates as strings, no undefined).
  return { id, type: event.type, payload: JSON.parse(JSON.stringify(envelope)) as JsonObject, headers: traceRecord() };
}

/** The part of a Prisma transaction client an event is written with; every app's schema has `OutboxEvent`. */
export interface OutboxTransaction {
  outboxEvent: { create(args: { data: OutboxRow }): PromiseLike<unknown> };
}

/**
 * Writes an event to the outbox inside the caller's transaction, beside the change it reports; the relay publishes
 * it after commit (at once after `OutboxRelay.kick()`, else at its next poll).
 */
export async function writeOutboxEvent<T extends object>(
  tx: OutboxTransaction,
  event: EventDescriptor<T>,
  data: T,
  cause: EventCause,
): Promise<void> {
  await tx.outboxEvent.create({ data: outboxRecord(event, data, cause) });
}

/** What the relay needs of a transaction: Kysely through it (libs/persistence `kyselyExtension`). */
export interface OutboxRelayTransaction {
  $kysely(): QueryExecutorProvider;
}

/**
 * Where the relay claims and marks its rows, one Prisma interactive transaction per batch: the app's `Transactions`
 * (libs/persistence; every app's transaction client has `$kysely()`, and each app's schema the `outbox_events` table).
 */
export interface OutboxDatabase {
  run<R>(fn: (tx: OutboxRelayTransaction) => Promise<R>, options?: { timeout?: number; maxWait?: number }): Promise<R>;
}

/** Longest a relay's transaction may run (its statements and the publishes between them). */
const RELAY_TRANSACTION_MS = 30_000;

export interface OutboxPublisherOptions {
  /** Rows claimed per transaction. */
  batchSize?: number;
}

const tracer = trace.getTracer('switchboard.messaging');

/**
 * Publishes committed outbox rows to JetStream, oldest first, with the row id as message id, then marks them
 * published. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so replicas share the work and a crash between
 * publish and mark only republishes (JetStream drops the duplicate inside its window). It has no loop of its own:
 * the app's `OutboxRelay` (libs/service-runtime) runs `drain()` on a `PollingWorker`, kicked after commits.
 */
export class OutboxPublisher {
  private readonly js: JetStreamClient;
  readonly batchSize: number;

  constructor(
    private readonly db: OutboxDatabase,
    private readonly nc: NatsConnection,
    private readonly config: MessagingConfig,
    private readonly streams: StreamDefinition[],
    options: OutboxPublisherOptions = {},
  ) {
    this.js = jetstream(nc);
    this.batchSize = options.batchSize ?? 100;
  }

  /** Creates (or updates) the streams the rows are published to; before the first `drain()`. */
  async ensureStreams(): Promise<void> {
    for (const stream of this.streams) await ensureStream(this.nc, this.config, stream);
  }

  /** Publishes until no unpublished row is left. Returns how many it published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.publishBatch();
      total += published;
      if (published < this.batchSize) return total;
    }
  }

  private publishBatch(): Promise<number> {
    return this.db.run(
      async (tx) => {
        // Kysely's `sql` tag: the lib knows the outbox table by `OutboxRow` only (each app generates its own types).
        const { rows } = await sql<OutboxRow>`SELECT id::text AS id, type, payload, headers FROM outbox_events
          WHERE published_at IS NULL ORDER BY created_at, id LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED`.execute(
          tx.$kysely(),
        );
        if (rows.length === 0) return 0;
        await Promise.all(rows.map((row) => this.publish(row)));
        await sql`UPDATE outbox_events SET published_at = now() WHERE id = ANY(${rows.map((row) => row.id)}::uuid[])`.execute(
          tx.$kysely(),
        );
        return rows.length;
      },
      { timeout: RELAY_TRANSACTION_MS },
    );
  }

  private async publish(row: OutboxRow): Promise<void> {
    const parent = contextFromRecord(row.headers);
    const span = tracer.startSpan(
      `${row.type} publish`,
      { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.message.id': row.id } },
      parent,
    );
    try {
      const h = natsHeaders();
      for (const [key, value] of Object.entries(traceRecord(trace.setSpan(context.active(), span)))) h.set(key, value);
      await this.js.publish(eventSubject(this.config, row.type), JSON.stringify(row.payload), {
        msgID: row.id,
        headers: h,
      });
      const occurredAt = typeof row.payload.occurred_at === 'string' ? Date.parse(row.payload.occurred_at) : Number.NaN;
      if (Number.isFinite(occurredAt))
        Metrics.outboxLag().record(Math.max(0, Date.now() - occurredAt) / 1000, { type: row.type });
    } finally {
      span.end();
    }
  }
}
