import { jetstream, jetstreamManager, type JetStreamManager, type JsMsg, type StoredMsg } from '@nats-io/jetstream';
import {
  ClosedConnectionError,
  ConnectionError,
  DrainingConnectionError,
  NoRespondersError,
  RequestError,
  TimeoutError,
  headers as natsHeaders,
  type MsgHdrs,
  type NatsConnection,
} from '@nats-io/transport-node';
import {
  DEFAULT_DEAD_LETTER_LIST_LIMIT,
  SERVICES,
  ServiceError,
  type ServiceName,
  type DeadLetterList,
  type DeadLetterReplay,
  type DeadLetterView,
} from '@switchboard/contracts';
import { streamsOwnedBy } from './bus-permissions';
import {
  DEAD_LETTERS_STREAM,
  DEAD_LETTERS_SUBJECT,
  deadLetterSubject,
  type DeadLetterRecordKind,
} from './dead-letter-subjects';
import { addStreamIfMissing, NANOS_PER_MS } from './jetstream';
import { rpcSubject, streamName, type MessagingConfig } from './messaging.config';
import type { NatsLink } from './nats-link';

export * from './dead-letter-subjects';

/** How long dead letters (and the other records) are kept: long enough to notice, fix and replay. */
export const DEAD_LETTER_MAX_AGE_DAYS = 30;

/**
 * How a durable consumer gives up: `maxDeliver` deliveries charged to a message (a handler failure, or a delivery
 * never answered within the ack wait), the n-th failure waiting `backoffMs[n - 1]` (the last one repeated) before
 * the next. A database outage and `RetryLater` are not charged: an outage is waited out, whatever its length.
 */
export interface DeliveryBudget {
  maxDeliver: number;
  backoffMs: readonly number[];
}

/** 5 deliveries in about 6 minutes: a bug shows on the first, a flaky dependency gets minutes to come back. */
export const DEFAULT_DELIVERY_BUDGET: DeliveryBudget = {
  maxDeliver: 5,
  backoffMs: [1_000, 10_000, 60_000, 300_000],
};

/** Checks a budget at start, so a consumer with a nonsensical one never runs. */
export function checkDeliveryBudget(durable: string, budget: DeliveryBudget): DeliveryBudget {
  if (!Number.isInteger(budget.maxDeliver) || budget.maxDeliver < 1) {
    throw new Error(`durable consumer ${durable}: maxDeliver must be a whole number of at least 1`);
  }
  if (budget.backoffMs.length === 0 || budget.backoffMs.some((ms) => !Number.isInteger(ms) || ms < 0)) {
    throw new Error(`durable consumer ${durable}: backoffMs must list at least one delay in whole milliseconds`);
  }
  return budget;
}

/** The wait after the `failures`-th charged delivery failed (1 for the first): the schedule's, its last repeated. */
export function backoffDelay(budget: DeliveryBudget, failures: number): number {
  const { backoffMs } = budget;
  return backoffMs[Math.min(Math.max(failures, 1), backoffMs.length) - 1];
}

/** What a consumer decides after a charged delivery failed. */
export type FailureVerdict = { kind: 'retry'; delayMs: number } | { kind: 'dead-letter' };

export function afterFailure(budget: DeliveryBudget, charged: number): FailureVerdict {
  return charged >= budget.maxDeliver
    ? { kind: 'dead-letter' }
    : { kind: 'retry', delayMs: backoffDelay(budget, charged) };
}

/**
 * Creates the dead-letter stream if it is missing (every consumer and the gateway call this). File storage, one
 * message per subject (a record's latest state), direct reads (a read by subject can then be granted per durable),
 * a 2-minute duplicate window (a dead letter written twice, a replay sent twice).
 */
export async function ensureDeadLetterStream(
  nc: NatsConnection,
  config: MessagingConfig,
  jsm?: JetStreamManager,
): Promise<string> {
  const manager = jsm ?? (await jetstreamManager(nc));
  const name = streamName(config, DEAD_LETTERS_STREAM);
  await addStreamIfMissing(manager, {
    name,
    subjects: [rpcSubject(config, `${DEAD_LETTERS_SUBJECT}.>`)],
    storage: 'file',
    num_replicas: config.streamReplicas ?? 1,
    retention: 'limits',
    max_msgs_per_subject: 1,
    allow_direct: true,
    max_age: DEAD_LETTER_MAX_AGE_DAYS * 24 * 3600 * 1000 * NANOS_PER_MS,
    duplicate_window: 120_000 * NANOS_PER_MS,
  });
  return name;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function headersOf(hdrs: MsgHdrs | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!hdrs) return out;
  for (const key of hdrs.keys()) out[key] = hdrs.values(key);
  return out;
}

/** The dead letter as written to the stream: the view without `replayed_at`, which is a record of its own. */
export type DeadLetterRecord = Omit<DeadLetterView, 'replayed_at'>;

/** What the consumer side of the dead-letter stream needs: one per `JetStreamServer`. */
export class DeadLetterWriter {
  private on: { nc: NatsConnection; jsm: JetStreamManager; stream: string } | undefined;

  constructor(private readonly config: MessagingConfig) {}

  /** Creates the stream if missing; called at each start of the consumers (a new connection). */
  async ensure(nc: NatsConnection, jsm: JetStreamManager): Promise<void> {
    this.on = { nc, jsm, stream: await ensureDeadLetterStream(nc, this.config, jsm) };
  }

  /** Deliveries of this message not charged to it so far (0 when none were excused). */
  async excused(durable: string, seq: number): Promise<number> {
    const { jsm, stream } = this.started();
    const found = await jsm.direct.getMessage(stream, {
      last_by_subj: rpcSubject(this.config, deadLetterSubject('excused', durable, seq)),
    });
    return found ? (found.json<{ excused?: number }>().excused ?? 0) : 0;
  }

  /** Records that `excused` deliveries of this message (this one included) are not to be charged to it. */
  async excuse(durable: string, seq: number, excused: number): Promise<void> {
    await jetstream(this.started().nc).publish(
      rpcSubject(this.config, deadLetterSubject('excused', durable, seq)),
      JSON.stringify({ excused }),
    );
  }

  /** Writes the dead letter (once: a second write of the same one is de-duplicated) and returns it. */
  async write(
    msg: JsMsg,
    from: { durable: string; handler: string; error: string; attempts: number },
  ): Promise<DeadLetterRecord> {
    const payload = decoder.decode(msg.data);
    let envelope: { id?: unknown; type?: unknown } = {};
    try {
      const parsed: unknown = JSON.parse(payload);
      if (parsed && typeof parsed === 'object') envelope = parsed;
    } catch {
      // Not JSON: kept as it came, without an event id or type.
    }
    const record: DeadLetterRecord = {
      id: `${from.durable}.${msg.seq}`,
      durable: from.durable,
      handler: from.handler,
      stream: msg.info.stream,
      stream_seq: msg.seq,
      subject: msg.subject,
      event_id: typeof envelope.id === 'string' ? envelope.id : null,
      event_type: typeof envelope.type === 'string' ? envelope.type : null,
      payload,
      headers: headersOf(msg.headers),
      error: from.error,
      attempts: from.attempts,
      deliveries: msg.info.deliveryCount,
      published_at: new Date(msg.info.timestampNanos / NANOS_PER_MS).toISOString(),
      dead_lettered_at: new Date().toISOString(),
    };
    await jetstream(this.started().nc).publish(
      rpcSubject(this.config, deadLetterSubject('letter', from.durable, msg.seq)),
      JSON.stringify(record),
      { msgID: `dead-letter:${record.id}` },
    );
    return record;
  }

  private started(): { nc: NatsConnection; jsm: JetStreamManager; stream: string } {
    if (!this.on) throw new Error('the dead-letter stream is not ensured yet');
    return this.on;
  }
}

const BUS_FAILURES = [
  TimeoutError,
  NoRespondersError,
  RequestError,
  ConnectionError,
  ClosedConnectionError,
  DrainingConnectionError,
];

/** The service that publishes a stream (its full name, as a dead letter records it): the one that may replay. */
export function streamOwner(config: Pick<MessagingConfig, 'prefix'>, stream: string): ServiceName | undefined {
  return SERVICES.find((service) => streamsOwnedBy(service).some((d) => streamName(config, d.name) === stream));
}

/** The header a replayed message carries: the dead letter it replays (the event's own id stays in its body). */
export const REPLAY_OF_HEADER = 'Switchboard-Replay-Of';

/**
 * The operator's side of the dead-letter stream (the gateway's operator API): list, read and replay. A replay
 * republishes the message to its original subject, body and headers as they were (the event keeps its id, so every
 * consumer's idempotency holds), with a message id of its own (`replay:<dead letter id>`) so JetStream's duplicate
 * window does not take it for the original; the `replayed` record, written once, makes a second replay send nothing.
 * NATS unreachable: 503 `service_unavailable`.
 */
export class DeadLetterStore {
  constructor(
    private readonly link: NatsLink,
    private readonly config: MessagingConfig,
  ) {}

  async list(limit = DEFAULT_DEAD_LETTER_LIST_LIMIT, startingAfter?: string): Promise<DeadLetterList> {
    return this.guard(async (jsm, stream) => {
      let seq = 0;
      if (startingAfter !== undefined) {
        const after = await this.record(jsm, stream, 'letter', startingAfter);
        if (!after) throw new ServiceError('not_found', `No dead letter ${startingAfter}.`);
        seq = after.seq;
      }
      const filter = rpcSubject(this.config, deadLetterSubject('letter', '*', '*'));
      const data: DeadLetterView[] = [];
      // One more than asked: whether another page follows.
      while (data.length <= limit) {
        const next = await jsm.direct.getMessage(stream, { seq: seq + 1, next_by_subj: filter });
        if (!next) break;
        seq = next.seq;
        data.push(await this.view(jsm, stream, next.json<DeadLetterRecord>()));
      }
      return { data: data.slice(0, limit), has_more: data.length > limit };
    });
  }

  async show(id: string): Promise<DeadLetterView> {
    return this.guard(async (jsm, stream) => this.view(jsm, stream, await this.letter(jsm, stream, id)));
  }

  /** Republishes a dead letter of a stream `service` owns (only an owner may publish there); once. */
  async replay(id: string, service: ServiceName): Promise<DeadLetterReplay> {
    return this.guard(async (jsm, stream) => {
      const letter = await this.letter(jsm, stream, id);
      if (streamOwner(this.config, letter.stream) !== service) {
        throw new ServiceError(
          'invalid_request',
          `${id} is of stream ${letter.stream}, which ${service} does not publish.`,
        );
      }
      const earlier = await this.record(jsm, stream, 'replayed', id);
      if (earlier) return { dead_letter: await this.view(jsm, stream, letter), republished: false };
      const hdrs = natsHeaders();
      for (const [key, values] of Object.entries(letter.headers)) {
        // The original's message id would make JetStream drop the replay as a duplicate for 2 minutes.
        if (key.toLowerCase() === 'nats-msg-id') continue;
        for (const value of values) hdrs.append(key, value);
      }
      hdrs.set(REPLAY_OF_HEADER, letter.id);
      const nc = await this.link.connected();
      const ack = await jetstream(nc).publish(letter.subject, encoder.encode(letter.payload), {
        msgID: `replay:${letter.id}`,
        headers: hdrs,
      });
      const replayedAt = new Date().toISOString();
      // `lastSubjectSequence: 0`: only the first replay writes the record; a concurrent one finds it there.
      await jetstream(nc)
        .publish(
          rpcSubject(this.config, deadLetterSubject('replayed', letter.durable, letter.stream_seq)),
          JSON.stringify({ replayed_at: replayedAt, stream_seq: ack.seq }),
          { expect: { lastSubjectSequence: 0 } },
        )
        .catch(() => undefined);
      return { dead_letter: await this.view(jsm, stream, letter), republished: !ack.duplicate };
    });
  }

  private async letter(jsm: JetStreamManager, stream: string, id: string): Promise<DeadLetterRecord> {
    const found = await this.record(jsm, stream, 'letter', id);
    if (!found) throw new ServiceError('not_found', `No dead letter ${id}.`);
    return found.json<DeadLetterRecord>();
  }

  private async view(jsm: JetStreamManager, stream: string, letter: DeadLetterRecord): Promise<DeadLetterView> {
    const replayed = await this.record(jsm, stream, 'replayed', letter.id);
    return { ...letter, replayed_at: replayed ? replayed.json<{ replayed_at: string }>().replayed_at : null };
  }

  /** The latest record of this kind for a dead letter id (`<durable>.<seq>`), or null. */
  private async record(
    jsm: JetStreamManager,
    stream: string,
    kind: DeadLetterRecordKind,
    id: string,
  ): Promise<Pick<StoredMsg, 'seq' | 'json'> | null> {
    const dot = id.lastIndexOf('.');
    const subject = deadLetterSubject(kind, id.slice(0, dot), Number(id.slice(dot + 1)));
    return jsm.direct.getMessage(stream, { last_by_subj: rpcSubject(this.config, subject) });
  }

  private async guard<T>(work: (jsm: JetStreamManager, stream: string) => Promise<T>): Promise<T> {
    const nc = this.link.connection;
    if (!nc || this.link.state !== 'connected') {
      throw new ServiceError('service_unavailable', 'The message bus is unavailable; retry shortly.');
    }
    try {
      const jsm = await jetstreamManager(nc);
      return await work(jsm, await ensureDeadLetterStream(nc, this.config, jsm));
    } catch (error) {
      // The bus failing under the request is an outage (503); anything else is a bug, answered 500 and logged.
      if (BUS_FAILURES.some((failure) => error instanceof failure)) {
        throw new ServiceError('service_unavailable', 'JetStream did not answer; retry shortly.');
      }
      throw error;
    }
  }
}
