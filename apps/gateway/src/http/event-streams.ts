import type { ServerResponse } from 'node:http';
import { ServiceError } from '@switchboard/contracts';
import type { FastifyReply } from 'fastify';

/**
 * What the gateway's Server-Sent Event streams share (`webhook/listen`, docs/adr/0128; the live call streams,
 * docs/live-calls.md): the per-account cap of one replica, the key each was opened with, and how a stream starts.
 */

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;

/** A client that has not read this much of its stream is too slow: its stream is ended (it connects again). */
export const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

/** One open (or opening) stream as the registry sees it. */
export interface AccountStream<Reason extends string> {
  accountId: string;
  /** The API key it was opened with; undefined for a console session. */
  keyId?: string;
  /** Ends the stream, saying why (`end` event), or quietly when the client went away. */
  end(reason?: Reason): void;
}

/** The streams of one kind open on this replica, by account, at most `cap` per account. */
export class AccountStreams<Reason extends string, S extends AccountStream<Reason>> {
  private readonly byAccount = new Map<string, Set<S>>();

  /** `refusal`: the 429's message, naming what is capped. */
  constructor(
    private readonly cap: number,
    private readonly refusal: string,
  ) {}

  /**
   * Takes a place for the stream, or throws 429 `rate_limited`: counted and taken in one step, before the caller
   * awaits anything, so opens racing each other never pass the cap together.
   */
  add(stream: S): void {
    const streams = this.byAccount.get(stream.accountId) ?? new Set<S>();
    if (streams.size >= this.cap) throw new ServiceError('rate_limited', this.refusal, 5);
    streams.add(stream);
    this.byAccount.set(stream.accountId, streams);
  }

  remove(stream: S): void {
    const streams = this.byAccount.get(stream.accountId);
    streams?.delete(stream);
    if (streams?.size === 0) this.byAccount.delete(stream.accountId);
  }

  /** How many are open or opening (all accounts). */
  get size(): number {
    return this.all().length;
  }

  all(): S[] {
    return [...this.byAccount.values()].flatMap((streams) => [...streams]);
  }

  /** The keys of the open and opening streams, each once. */
  keyIds(): string[] {
    return [...new Set(this.all().flatMap((stream) => (stream.keyId ? [stream.keyId] : [])))];
  }

  /** Ends the key's streams with `reason`; answers how many. */
  endKey(keyId: string, reason: Reason): number {
    const ending = this.all().filter((stream) => stream.keyId === keyId);
    for (const stream of ending) stream.end(reason);
    return ending.length;
  }

  /** Ends every stream with `reason` (the server is closing). */
  endAll(reason: Reason): void {
    for (const stream of this.all()) stream.end(reason);
  }
}

/**
 * Answers 200 with an event stream, written from here on outside Fastify's reply (which answers once): what its
 * onRequest hook set is repeated. The connection goes with the stream (`Connection: close`): none is left idle for a
 * closing server to wait on. `ended` runs when the client goes away or the socket fails.
 */
export function startEventStream(reply: FastifyReply, requestId: string, ended: () => void): ServerResponse {
  const response = reply.raw;
  void reply.hijack();
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    // nginx and others buffer responses unless told not to; an event must reach the client at once.
    'X-Accel-Buffering': 'no',
    Connection: 'close',
  });
  response.on('close', ended);
  response.on('error', ended);
  return response;
}

/** The `end` event a stream ends with: why, in a word and in words. */
export function endEvent(reason: string, message: string): string {
  return `event: end\ndata: ${JSON.stringify({ reason, message })}\n\n`;
}
