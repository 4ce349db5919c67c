import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Msg, Subscription } from '@nats-io/transport-node';
import { ServiceError, WebhookCopy, isTestAccount, webhookCopySubject } from '@switchboard/contracts';
import {
  MESSAGING_CONFIG,
  NATS_LINK,
  rpcSubject,
  validateMessage,
  type MessagingConfig,
  type NatsLink,
} from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/gateway.config';
import {
  AccountStreams,
  HEARTBEAT_MS,
  MAX_UNREAD_BYTES,
  endEvent,
  startEventStream,
  type AccountStream,
} from '../http/event-streams';
import { GATEWAY_CONFIG } from '../config/tokens';

/** Listeners one account may have open at once on one gateway process; one more is refused with 429. */
export const MAX_LISTENERS_PER_ACCOUNT = 10;

/**
 * A released number's streams wait this long for the dispatcher's copy of its `number.released` webhook, the last
 * event a number has, then end without it (the dispatcher may be down).
 */
export const RELEASE_GRACE_MS = 10_000;

/** The webhook type whose copy is a released number's last event: its streams end once it is written. */
const NUMBER_RELEASED_TYPE = 'number.released';

/**
 * Why the gateway ended a stream, sent as its last event (`event: end`). `npm run listen` connects again after
 * `lifetime`, `shutdown`, `unavailable` and `too_slow`, and stops after `key_revoked` and `number_released`.
 */
export type ListenEnd = 'lifetime' | 'key_revoked' | 'number_released' | 'shutdown' | 'unavailable' | 'too_slow';

const END_MESSAGES: Record<ListenEnd, string> = {
  lifetime: 'The stream reached its maximum lifetime; connect again.',
  key_revoked: 'The API key this stream was opened with was revoked; listen with an active key.',
  number_released: 'The number was released; it has no more webhooks.',
  shutdown: 'The server is stopping; connect again.',
  unavailable: 'The message bus is unavailable; connect again shortly.',
  too_slow: 'The stream was not read fast enough; connect again.',
};

/** Who listens: the key the stream was opened with, its account, and the number. */
export interface ListenerIdentity {
  accountId: string;
  keyId: string;
  numberId: string;
}

interface Listener extends ListenerIdentity, Omit<AccountStream<ListenEnd>, 'keyId'> {
  /** The number was released: the stream ends after its `number.released` copy, or after RELEASE_GRACE_MS. */
  numberReleased(): void;
}

/**
 * The `webhook/listen` streams (docs/adr/0128-webhook-signatures-secrets-and-listen.md): for each connected listener, a plain NATS
 * subscription to its number's copies of signed deliveries (published by webhook-dispatcher), written to the
 * listener as Server-Sent Events. Nothing is kept: a copy published while no listener is connected, or while NATS is
 * away, is not sent to anyone later. The deliveries themselves go on as if no one listened.
 *
 * A stream lives at most `WEBHOOK_LISTEN_MAX_SECONDS`, and ends at once when its key is revoked or its number is
 * released (`WebhookListenEndings` hears both on every replica): the key is checked when the stream opens, so what
 * happens to the key later must reach the stream.
 */
@Injectable()
export class WebhookListeners implements BeforeApplicationShutdown {
  /** Open and opening streams, by account: a place is taken before anything is awaited (see `open`). */
  private readonly listeners = new AccountStreams<ListenEnd, Listener>(
    MAX_LISTENERS_PER_ACCOUNT,
    `At most ${MAX_LISTENERS_PER_ACCOUNT} webhook listeners of one account may be connected at once; close one first.`,
  );
  /** Set when the server starts closing: a stream opened after that would keep it from closing. */
  private closing = false;

  constructor(
    @Inject(NATS_LINK) private readonly link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'webhookListenMaxMs'>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** How many streams are open or opening (all accounts). */
  get size(): number {
    return this.listeners.size;
  }

  /** The keys of the open and opening streams, each once. */
  keyIds(): string[] {
    return this.listeners.keyIds();
  }

  /** The key was revoked: its streams end now, and one still opening is refused with 401. */
  endKey(keyId: string): number {
    return this.listeners.endKey(keyId, 'key_revoked');
  }

  /** The number was released: its streams end after its last webhook (`number.released`), or soon without it. */
  numberReleased(numberId: string): void {
    for (const listener of this.listeners.all()) if (listener.numberId === numberId) listener.numberReleased();
  }

  /**
   * Subscribes to the number's copies, then answers 200 with an event stream that starts with `ready` (every copy
   * published after it is sent) and carries one `webhook` event per copy, until it ends with an `end` event. Throws
   * before answering when it cannot.
   */
  async open(who: ListenerIdentity, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { accountId, numberId } = who;
    const nc = this.link.connection;
    if (!nc || this.link.state !== 'connected' || this.closing) throw busUnavailable();

    const response = reply.raw;
    let endedBy: ListenEnd | 'closed' | undefined;
    let streaming = false;
    // Set once below, but `end` (declared before them) may run first: a const would be read in its dead zone.
    // eslint-disable-next-line prefer-const -- read before its one assignment, see above
    let heartbeat: NodeJS.Timeout | undefined;
    // eslint-disable-next-line prefer-const -- read before its one assignment, see above
    let lifetime: NodeJS.Timeout | undefined;
    let releaseGrace: NodeJS.Timeout | undefined;
    let subscription: Subscription | undefined;
    // Copies are written in the order NATS hands them over, each after its check.
    let chain = Promise.resolve();
    const listener: Listener = {
      ...who,
      end: (reason) => {
        if (endedBy) return;
        endedBy = reason ?? 'closed';
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        clearTimeout(releaseGrace);
        subscription?.unsubscribe();
        this.listeners.remove(listener);
        // Ended while opening: `open` answers with the reason's error instead of a stream.
        if (!streaming) return;
        if (response.writableEnded) return;
        if (reason) {
          response.write(endEvent(reason, END_MESSAGES[reason]));
          this.logger.info({ number_id: numberId, request_id: request.id, reason }, 'webhook listener ended');
        }
        // The connection goes with the stream (`Connection: close`): none is left idle for a closing server to wait on.
        response.end(() => response.destroy());
      },
      numberReleased: () => {
        if (endedBy || releaseGrace) return;
        releaseGrace = setTimeout(() => listener.end('number_released'), RELEASE_GRACE_MS);
        releaseGrace.unref();
      },
    };
    // The place is counted and taken in one step, before the first await: opens racing each other each see the places
    // the others took, so no more than MAX_LISTENERS_PER_ACCOUNT are ever open or opening.
    this.listeners.add(listener);

    const write = (frame: string): void => {
      if (endedBy) return;
      response.write(frame);
      if (response.writableLength > MAX_UNREAD_BYTES) {
        this.logger.warn({ number_id: numberId, request_id: request.id }, 'webhook listener too slow; stream ended');
        listener.end('too_slow');
      }
    };
    const forward = async (msg: Msg): Promise<void> => {
      let copy: WebhookCopy;
      try {
        copy = await validateMessage(WebhookCopy, msg.json());
      } catch (err) {
        this.logger.warn({ err, number_id: numberId }, 'unreadable webhook copy not forwarded');
        return;
      }
      if (copy.number_id !== numberId) return;
      const headers = Object.fromEntries(
        Object.entries(copy.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      const data = { ...copy, headers, livemode: !isTestAccount(accountId) };
      write(`event: webhook\nid: ${copy.event_id}\ndata: ${JSON.stringify(data)}\n\n`);
      if (copy.type === NUMBER_RELEASED_TYPE) listener.end('number_released');
    };

    try {
      subscription = nc.subscribe(rpcSubject(this.messaging, webhookCopySubject(accountId, numberId)), {
        callback: (error, msg) => {
          if (error) return listener.end('unavailable');
          chain = chain.then(() => forward(msg));
        },
      });
      void subscription.closed.then(() => listener.end('unavailable'));
      // Once the server has the subscription, every copy published after this reaches the stream.
      await nc.flush();
    } catch {
      listener.end('unavailable');
    }
    if (this.closing) listener.end('shutdown');
    if (endedBy) throw refusal(endedBy);

    streaming = true;
    startEventStream(reply, String(request.id), () => listener.end());
    write(
      `retry: 1000\n\nevent: ready\ndata: ${JSON.stringify({ number_id: numberId, livemode: !isTestAccount(accountId) })}\n\n`,
    );
    heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    // Between 90 % and 100 % of the maximum, so listeners that connected together (after a deploy) do not all
    // reconnect in the same second.
    lifetime = setTimeout(() => listener.end('lifetime'), this.config.webhookListenMaxMs * (1 - 0.1 * Math.random()));
    lifetime.unref();
    this.logger.info({ number_id: numberId, request_id: request.id }, 'webhook listener connected');
  }

  /** Ends every stream, so the server can close (a listener connects again, to another replica or after the restart). */
  beforeApplicationShutdown(): void {
    this.closing = true;
    this.listeners.endAll('shutdown');
  }
}

function busUnavailable(): ServiceError {
  return new ServiceError('service_unavailable', END_MESSAGES.unavailable);
}

/** The answer to an open whose stream ended before it started. */
function refusal(reason: ListenEnd | 'closed'): ServiceError {
  if (reason === 'key_revoked')
    return new ServiceError('unauthorized', 'A valid API key is required: send Authorization: Bearer <key>.');
  if (reason === 'number_released') return new ServiceError('number_released', END_MESSAGES.number_released);
  return busUnavailable();
}
