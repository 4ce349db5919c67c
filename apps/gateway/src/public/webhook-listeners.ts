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

/** Listeners one account may have open at once on one gateway process; one more is refused with 429. */
export const MAX_LISTENERS_PER_ACCOUNT = 10;

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;

/** A listener that has not read this much of its stream is too slow: its stream is ended (it connects again). */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

interface Listener {
  accountId: string;
  end(): void;
}

/**
 * The `webhook/listen` streams (docs/adr/0128-webhook-listen.md): for each connected listener, a plain NATS
 * subscription to its number's copies of signed deliveries (published by webhook-dispatcher), written to the
 * listener as Server-Sent Events. Nothing is kept: a copy published while no listener is connected, or while NATS is
 * away, is not sent to anyone later. The deliveries themselves go on as if no one listened.
 */
@Injectable()
export class WebhookListeners implements BeforeApplicationShutdown {
  private readonly listeners = new Set<Listener>();
  /** Set when the server starts closing: a stream opened after that would keep it from closing. */
  private closing = false;

  constructor(
    @Inject(NATS_LINK) private readonly link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** How many streams are open (all accounts). */
  get size(): number {
    return this.listeners.size;
  }

  /**
   * Subscribes to the number's copies, then answers 200 with an event stream that starts with `ready` (every copy
   * published after it is sent) and carries one `webhook` event per copy. Throws before answering when it cannot.
   */
  async open(accountId: string, numberId: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const nc = this.link.connection;
    if (!nc || this.link.state !== 'connected' || this.closing)
      throw new ServiceError('service_unavailable', 'The message bus is unavailable; connect again shortly.');
    if ([...this.listeners].filter((listener) => listener.accountId === accountId).length >= MAX_LISTENERS_PER_ACCOUNT)
      throw new ServiceError(
        'rate_limited',
        `At most ${MAX_LISTENERS_PER_ACCOUNT} webhook listeners of one account may be connected at once; close one first.`,
        5,
      );

    const response = reply.raw;
    let ended = false;
    // Set once below, but `end` (declared before them) may run first: a const would be read in its dead zone.
    // eslint-disable-next-line prefer-const -- read before its one assignment, see above
    let heartbeat: NodeJS.Timeout | undefined;
    // eslint-disable-next-line prefer-const -- read before its one assignment, see above
    let subscription: Subscription | undefined;
    // Copies are written in the order NATS hands them over, each after its check.
    let chain = Promise.resolve();
    const listener: Listener = {
      accountId,
      end: () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        subscription?.unsubscribe();
        this.listeners.delete(listener);
        // The connection goes with the stream (`Connection: close`): none is left idle for a closing server to wait on.
        if (!response.writableEnded) response.end(() => response.destroy());
      },
    };
    const write = (frame: string): void => {
      if (ended) return;
      response.write(frame);
      if (response.writableLength > MAX_UNREAD_BYTES) {
        this.logger.warn({ number_id: numberId, request_id: request.id }, 'webhook listener too slow; stream ended');
        listener.end();
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
    };

    subscription = nc.subscribe(rpcSubject(this.messaging, webhookCopySubject(accountId, numberId)), {
      callback: (error, msg) => {
        if (error) return listener.end();
        chain = chain.then(() => forward(msg));
      },
    });
    void subscription.closed.then(() => listener.end());
    try {
      // Once the server has the subscription, every copy published after this reaches the stream.
      await nc.flush();
    } catch {
      subscription.unsubscribe();
      throw new ServiceError('service_unavailable', 'The message bus is unavailable; connect again shortly.');
    }

    if (this.closing) {
      subscription.unsubscribe();
      throw new ServiceError('service_unavailable', 'The message bus is unavailable; connect again shortly.');
    }
    this.listeners.add(listener);
    // The stream is written here, outside Fastify's reply (which answers once): what its onRequest hook set is repeated.
    void reply.hijack();
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Request-Id': String(request.id),
      // nginx and others buffer responses unless told not to; an event must reach the listener at once.
      'X-Accel-Buffering': 'no',
      Connection: 'close',
    });
    response.on('close', () => listener.end());
    response.on('error', () => listener.end());
    write(
      `retry: 1000\n\nevent: ready\ndata: ${JSON.stringify({ number_id: numberId, livemode: !isTestAccount(accountId) })}\n\n`,
    );
    heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    this.logger.info({ number_id: numberId, request_id: request.id }, 'webhook listener connected');
  }

  /** Ends every stream, so the server can close (a listener connects again, to another replica or after the restart). */
  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const listener of [...this.listeners]) listener.end();
  }
}
