import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Subscription } from '@nats-io/transport-node';
import {
  LIVE_EVENT_ID_PATTERN,
  LiveCallsRpc,
  ServiceError,
  liveCallsSubject,
  type LiveCallEvent,
  type LiveCallEvents,
} from '@switchboard/contracts';
import {
  MESSAGING_CONFIG,
  NATS_LINK,
  RpcClient,
  rpcSubject,
  type MessagingConfig,
  type NatsLink,
} from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../config/tokens';
import {
  AccountStreams,
  HEARTBEAT_MS,
  MAX_UNREAD_BYTES,
  endEvent,
  startEventStream,
  type AccountStream,
} from '../http/event-streams';

/** Live streams one account may have open at once on one gateway replica; one more is refused with 429. */
export const MAX_LIVE_STREAMS_PER_ACCOUNT = 10;

/** Why a live stream ended, its last event (`event: end`): after `lifetime`, `shutdown` and `unavailable`, resume. */
export type LiveStreamEnd = 'call_ended' | 'lifetime' | 'key_revoked' | 'shutdown' | 'unavailable' | 'too_slow';

const END_MESSAGES: Record<LiveStreamEnd, string> = {
  call_ended: 'The call ended.',
  lifetime: 'The stream reached its maximum lifetime; connect again with Last-Event-ID.',
  key_revoked: 'The API key this stream was opened with was revoked.',
  shutdown: 'The server is stopping; connect again with Last-Event-ID.',
  unavailable: 'The message bus is unavailable; connect again with Last-Event-ID shortly.',
  too_slow: 'The stream was not read fast enough; connect again with Last-Event-ID.',
};

/** Who watches what: the account, the key (or console session) the stream was opened with, one call or all. */
export interface LiveStreamIdentity {
  accountId: string;
  /** The API key's id; undefined for a console session (its sign-out ends nothing here: the page goes with it). */
  keyId?: string;
  /** One call's stream; undefined: every call of the account in progress. */
  callId?: string;
  requestId: string;
}

type LiveStream = LiveStreamIdentity & AccountStream<LiveStreamEnd>;

/**
 * The live streams (`GET /v1/calls/{call_id}/live`, `GET /v1/calls/live` and the console's, docs/live-calls.md): for
 * each, a plain NATS subscription to the account's live events, which calls-media publishes on every replica's
 * subject as it applies them, written as Server-Sent Events. A stream first replays calls-media's log after its
 * `Last-Event-ID` (or from each call's start), then writes what the subscription brings, each event once and in id
 * order; at each heartbeat it reads the log again for anything a lost publish kept from it. So a stream on any
 * replica sees every turn.
 */
@Injectable()
export class LiveCallStreams implements BeforeApplicationShutdown {
  private readonly streams = new AccountStreams<LiveStreamEnd, LiveStream>(
    MAX_LIVE_STREAMS_PER_ACCOUNT,
    `At most ${MAX_LIVE_STREAMS_PER_ACCOUNT} live streams of one account may be open at once; close one first.`,
  );
  private closing = false;

  constructor(
    @Inject(NATS_LINK) private readonly link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'webhookListenMaxMs'>,
    private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** How many streams are open or opening (all accounts). */
  get size(): number {
    return this.streams.size;
  }

  /** The keys of the open and opening streams, each once. */
  keyIds(): string[] {
    return this.streams.keyIds();
  }

  /** The key was revoked: its streams end now. */
  endKey(keyId: string): number {
    return this.streams.endKey(keyId, 'key_revoked');
  }

  /**
   * Answers 200 with the event stream, or throws before answering: 404 for a call the account does not have, 429
   * past the cap, 503 while NATS is away. `lastEventId`: the id the client saw last ('0': from the start).
   */
  async open(
    who: LiveStreamIdentity,
    lastEventId: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const { accountId, callId } = who;
    const nc = this.link.connection;
    if (!nc || this.link.state !== 'connected' || this.closing) throw busUnavailable();

    const response = reply.raw;
    let endedBy: LiveStreamEnd | 'closed' | undefined;
    let streaming = false;
    // The last id written, and the account's last id this stream has accounted for: every event up to `known` is
    // written, or not this stream's. Ids are the account's, given in commit order with no gap (docs/live-calls.md).
    let last = BigInt(lastEventId);
    let known = last;
    // Events the subscription brought while the log was read: taken after it.
    let held: LiveCallEvent[] | undefined = [];
    // Events, catch-ups and heartbeats are handled one at a time, in the order they came.
    let queue = Promise.resolve();
    let subscription: Subscription | undefined;
    // eslint-disable-next-line prefer-const -- `end` (declared before them) may read them before their one assignment
    let heartbeat: NodeJS.Timeout | undefined;
    // eslint-disable-next-line prefer-const -- as above
    let lifetime: NodeJS.Timeout | undefined;
    const stream: LiveStream = {
      ...who,
      end: (reason) => {
        if (endedBy) return;
        endedBy = reason ?? 'closed';
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        subscription?.unsubscribe();
        this.streams.remove(stream);
        if (!streaming || response.writableEnded) return;
        if (reason) response.write(endEvent(reason, END_MESSAGES[reason]));
        response.end(() => response.destroy());
      },
    };
    // Counted and taken before the first await, so opens racing each other never pass the cap together.
    this.streams.add(stream);

    const write = (event: LiveCallEvent): void => {
      if (endedBy) return;
      if (event.id !== '') {
        const id = BigInt(event.id);
        if (id <= last) return;
        last = id;
      }
      response.write(
        `event: ${event.type}\n${event.id ? `id: ${event.id}\n` : ''}data: ${JSON.stringify(event.data)}\n\n`,
      );
      if (response.writableLength > MAX_UNREAD_BYTES) stream.end('too_slow');
      else if (callId && event.type === 'ended') stream.end('call_ended');
    };
    const accountFor = (id: bigint): void => {
      if (id > known) known = id;
    };
    /** What the log has after the last id written, each event once: what the subscription did not bring, in order. */
    const catchUp = async (): Promise<void> => {
      const page = await this.replay(who, last);
      for (const event of page.events) write(event);
      accountFor(BigInt(page.last_id));
      if (callId && !page.in_progress) stream.end('call_ended');
    };
    /**
     * An event as published: written when it is the one after `known`. Past it, some were not heard (a publish lost,
     * or two calls' events published out of their commit order): they are all committed by now, so the log gives them
     * in order. At or below it: already written by a catch-up, or a repeat.
     */
    const take = async (event: LiveCallEvent): Promise<void> => {
      if (endedBy) return;
      const id = BigInt(event.id);
      if (id <= known) return;
      if (id === known + 1n) {
        known = id;
        if (!callId || event.call_id === callId) write(event);
        return;
      }
      await catchUp();
      accountFor(id);
    };
    const enqueue = (task: () => Promise<void>): void => {
      queue = queue.then(task).catch((err: unknown) => {
        this.logger.warn({ err, call_id: callId }, 'live stream could not read the log; trying at the next beat');
      });
    };

    try {
      subscription = nc.subscribe(rpcSubject(this.messaging, liveCallsSubject(accountId)), {
        callback: (error, msg) => {
          if (error) return stream.end('unavailable');
          let event: LiveCallEvent;
          try {
            event = msg.json<LiveCallEvent>();
          } catch (err) {
            this.logger.warn({ err }, 'unreadable live event not forwarded');
            return;
          }
          if (held) held.push(event);
          else enqueue(() => take(event));
        },
      });
      void subscription.closed.then(() => stream.end('unavailable'));
      // Once the server has the subscription, every event published after it reaches the stream; the log has the rest.
      await nc.flush();
    } catch {
      stream.end('unavailable');
    }
    let replay: LiveCallEvents;
    try {
      if (endedBy) throw busUnavailable();
      replay = await this.replay(who, last);
    } catch (error) {
      stream.end();
      throw error;
    }
    if (this.closing) stream.end('shutdown');
    if (endedBy) throw busUnavailable();

    streaming = true;
    startEventStream(reply, who.requestId, () => stream.end());
    response.write('retry: 1000\n\n');
    for (const event of replay.events) write(event);
    // Every event up to the log's last id is in the replay or not this stream's: a new stream of all calls starts
    // there (the calls that ended before it opened are not its), a call's stream knows its call's events are in.
    const logLast = BigInt(replay.last_id);
    if (!callId && logLast > last) last = logLast;
    accountFor(logLast);
    const waiting = (held ?? []).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    held = undefined;
    for (const event of waiting) enqueue(() => take(event));
    // A call that is over by now (its `ended` replayed above, or never logged) has nothing more to come.
    if (callId && !replay.in_progress) stream.end('call_ended');
    heartbeat = setInterval(
      () =>
        enqueue(async () => {
          if (endedBy || response.writableEnded) return;
          response.write(': keep-alive\n\n');
          await catchUp();
        }),
      // With each comment, the log is read for what a lost publish kept from the stream.
      HEARTBEAT_MS,
    );
    heartbeat.unref();
    lifetime = setTimeout(() => stream.end('lifetime'), this.config.webhookListenMaxMs * (1 - 0.1 * Math.random()));
    lifetime.unref();
    this.logger.info({ call_id: callId, request_id: who.requestId }, 'live stream connected');
  }

  /** Ends every stream, so the server can close (a client resumes elsewhere with Last-Event-ID). */
  beforeApplicationShutdown(): void {
    this.closing = true;
    this.streams.endAll('shutdown');
  }

  /** The log after `after`, every page of it. */
  private async replay(who: LiveStreamIdentity, after: bigint): Promise<LiveCallEvents> {
    const events: LiveCallEvent[] = [];
    let cursor = after;
    for (;;) {
      const page = await this.rpc.request(
        LiveCallsRpc.since,
        { ...(who.callId ? { call_id: who.callId } : {}), after: cursor.toString() },
        { accountId: who.accountId, requestId: who.requestId },
      );
      events.push(...page.events);
      const lastId = page.events.filter((event) => event.id !== '').at(-1)?.id;
      if (!page.has_more || !lastId) return { ...page, events };
      cursor = BigInt(lastId);
    }
  }
}

function busUnavailable(): ServiceError {
  return new ServiceError('service_unavailable', END_MESSAGES.unavailable);
}

/** `Last-Event-ID` as given (a live event id), '0' when absent; anything else is refused with 400. */
export function resumeFrom(lastEventId: string | undefined): string {
  if (lastEventId === undefined || lastEventId === '') return '0';
  if (!LIVE_EVENT_ID_PATTERN.test(lastEventId))
    throw new ServiceError('invalid_request', 'Last-Event-ID must be the id of a live event (digits only).');
  return lastEventId;
}
