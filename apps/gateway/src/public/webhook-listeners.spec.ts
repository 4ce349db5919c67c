import type { LiveCallStreams } from '../live-calls/live-call-streams';
import { EventEmitter } from 'node:events';
import type { NatsConnection } from '@nats-io/transport-node';
import { ServiceError } from '@switchboard/contracts';
import type { MessagingConfig, NatsLink } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeysRepository } from '../api-keys/api-keys.repository';
import { WebhookListenEndings } from './webhook-listen-endings';
import { MAX_LISTENERS_PER_ACCOUNT, RELEASE_GRACE_MS, WebhookListeners } from './webhook-listeners';

const ACCOUNT = 'acct_00000000000000000001';
const OTHER_ACCOUNT = 'acct_00000000000000000002';
const KEY = 'key_000000000000000000000001';
const OTHER_KEY = 'key_000000000000000000000002';
const MAX_MS = 60_000;

/** The raw response a stream is written to, keeping what was written. */
class FakeResponse extends EventEmitter {
  written = '';
  status: number | undefined;
  writableEnded = false;
  writableLength = 0;
  writeHead(status: number): this {
    this.status = status;
    return this;
  }
  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }
  end(done?: () => void): void {
    this.writableEnded = true;
    done?.();
  }
  destroy(): void {}
  /** The `end` events written, parsed. */
  ends(): { reason: string; message: string }[] {
    return [...this.written.matchAll(/^event: end\ndata: (.*)$/gm)].map((match) => JSON.parse(match[1]));
  }
}

/**
 * NATS as the listeners see it: subscriptions by subject, and a `flush` that waits until the test lets it answer
 * (a server round trip, during which other opens run).
 */
type Handler = (error: Error | null, msg: { json: () => unknown }) => void;

class FakeNats {
  readonly handlers = new Map<string, Handler>();
  private flushes: (() => void)[] = [];
  held = true;

  subscribe(subject: string, options: { callback: Handler }) {
    this.handlers.set(subject, options.callback);
    return { unsubscribe: () => this.handlers.delete(subject), closed: new Promise<void>(() => undefined) };
  }
  flush(): Promise<void> {
    return this.held ? new Promise((resolve) => this.flushes.push(resolve)) : Promise.resolve();
  }
  answerFlushes(): void {
    this.held = false;
    for (const resolve of this.flushes.splice(0)) resolve();
  }
  /** Publishes a message to the subscription of exactly this subject. */
  deliver(subject: string, payload: unknown): void {
    this.handlers.get(subject)?.(null, { json: () => payload });
  }
}

function setUp(maxMs = MAX_MS) {
  const nats = new FakeNats();
  const link = { connection: nats as unknown as NatsConnection, state: 'connected' } as unknown as NatsLink;
  const messaging = { prefix: 'sb' } as MessagingConfig;
  const logger = createLogger('webhook-listeners-spec', 'silent');
  const listeners = new WebhookListeners(link, messaging, { webhookListenMaxMs: maxMs }, logger);
  const open = (accountId: string, keyId = KEY, numberId = 'num_1') => {
    const response = new FakeResponse();
    const reply = { raw: response, hijack: () => undefined } as unknown as FastifyReply;
    const request = { id: 'req_1' } as unknown as FastifyRequest;
    const opened = listeners.open({ accountId, keyId, numberId }, request, reply);
    return { response, opened };
  };
  return { nats, link, messaging, logger, listeners, open };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'opened';
  } catch (error) {
    return error instanceof ServiceError ? error.code : String(error);
  }
}

describe('WebhookListeners', () => {
  afterEach(() => jest.useRealTimers());

  it('lets exactly 10 of 100 parallel opens of one account through while NATS has yet to confirm them', async () => {
    const { nats, listeners, open } = setUp();
    const attempts = Array.from({ length: 100 }, () => open(ACCOUNT));
    // Another account's places are its own.
    const other = open(OTHER_ACCOUNT, OTHER_KEY);
    nats.answerFlushes();
    const codes = await Promise.all(attempts.map((attempt) => codeOf(attempt.opened)));

    expect(codes.filter((code) => code === 'opened')).toHaveLength(MAX_LISTENERS_PER_ACCOUNT);
    expect(codes.filter((code) => code === 'rate_limited')).toHaveLength(100 - MAX_LISTENERS_PER_ACCOUNT);
    expect(await codeOf(other.opened)).toBe('opened');
    expect(listeners.size).toBe(MAX_LISTENERS_PER_ACCOUNT + 1);
    expect(attempts.filter((attempt) => attempt.response.status === 200)).toHaveLength(MAX_LISTENERS_PER_ACCOUNT);

    // A place comes free when a listener goes away, and is taken by the next open alone.
    attempts.find((attempt) => attempt.response.status === 200)!.response.emit('close');
    expect(listeners.size).toBe(MAX_LISTENERS_PER_ACCOUNT);
    const again = [open(ACCOUNT), open(ACCOUNT)];
    expect((await Promise.all(again.map((attempt) => codeOf(attempt.opened)))).sort()).toEqual([
      'opened',
      'rate_limited',
    ]);
  });

  it("ends a revoked key's streams with an end event, and refuses its open still waiting on NATS with 401", async () => {
    const { nats, listeners, open } = setUp();
    nats.answerFlushes();
    const first = open(ACCOUNT);
    const second = open(ACCOUNT, KEY, 'num_2');
    const otherKey = open(ACCOUNT, OTHER_KEY);
    await Promise.all([first.opened, second.opened, otherKey.opened]);
    nats.held = true;
    const opening = open(ACCOUNT);

    expect(listeners.endKey(KEY)).toBe(3);
    nats.answerFlushes();

    expect(await codeOf(opening.opened)).toBe('unauthorized');
    for (const { response } of [first, second]) {
      expect(response.ends()).toEqual([{ reason: 'key_revoked', message: expect.stringMatching(/revoked/) }]);
      expect(response.writableEnded).toBe(true);
    }
    expect(otherKey.response.writableEnded).toBe(false);
    expect(listeners.size).toBe(1);
    expect(listeners.keyIds()).toEqual([OTHER_KEY]);
    // Nothing more reaches an ended stream.
    nats.deliver('sb.webhook-copies.v1.acct_00000000000000000001.num_1', {});
    expect(first.response.written).not.toMatch(/event: webhook/);
  });

  it('ends a stream between 90 % and 100 % of WEBHOOK_LISTEN_MAX_SECONDS with a lifetime end event', async () => {
    jest.useFakeTimers();
    const random = jest.spyOn(Math, 'random');
    const { nats, listeners, open } = setUp();
    nats.answerFlushes();
    random.mockReturnValue(0);
    const longest = open(ACCOUNT);
    await longest.opened;
    random.mockReturnValue(0.999_999);
    const shortest = open(ACCOUNT);
    await shortest.opened;
    random.mockRestore();

    jest.advanceTimersByTime(MAX_MS * 0.9 - 10);
    expect(shortest.response.writableEnded).toBe(false);
    jest.advanceTimersByTime(20);
    expect(shortest.response.ends()).toEqual([{ reason: 'lifetime', message: expect.any(String) }]);
    expect(longest.response.writableEnded).toBe(false);
    jest.advanceTimersByTime(MAX_MS * 0.1);
    expect(longest.response.ends()).toEqual([{ reason: 'lifetime', message: expect.any(String) }]);
    expect(listeners.size).toBe(0);
  });

  it("ends a released number's streams after its number.released webhook, or after the grace without it", async () => {
    jest.useFakeTimers();
    const { nats, listeners, open } = setUp();
    nats.answerFlushes();
    const withCopy = open(ACCOUNT, KEY, 'num_1');
    const withoutCopy = open(ACCOUNT, KEY, 'num_2');
    const otherNumber = open(ACCOUNT, KEY, 'num_3');
    await Promise.all([withCopy.opened, withoutCopy.opened, otherNumber.opened]);

    listeners.numberReleased('num_1');
    listeners.numberReleased('num_2');
    nats.deliver('sb.webhook-copies.v1.acct_00000000000000000001.num_1', {
      event_id: '6f1c2a9e-3b7d-4f5a-9c0e-1d2b3a4c5d6e',
      type: 'number.released',
      number_id: 'num_1',
      kind: 'not_sent',
      attempt: null,
      headers: { 'Content-Type': 'application/json' },
      body: '{"type":"number.released"}',
    });
    // The copy is validated before it is written.
    await jest.advanceTimersByTimeAsync(0);
    expect(withCopy.response.written).toMatch(/event: webhook\nid: 6f1c2a9e/);
    expect(withCopy.response.ends()).toEqual([{ reason: 'number_released', message: expect.any(String) }]);
    expect(withoutCopy.response.writableEnded).toBe(false);

    jest.advanceTimersByTime(RELEASE_GRACE_MS);
    expect(withoutCopy.response.ends()).toEqual([{ reason: 'number_released', message: expect.any(String) }]);
    expect(otherNumber.response.writableEnded).toBe(false);
    expect(listeners.size).toBe(1);
  });
});

describe('WebhookListenEndings', () => {
  it('ends the streams of a key the database says is revoked: a revocation this replica did not hear', async () => {
    const { nats, link, messaging, logger, listeners, open } = setUp();
    nats.answerFlushes();
    const revoked = open(ACCOUNT, KEY);
    const active = open(ACCOUNT, OTHER_KEY);
    await Promise.all([revoked.opened, active.opened]);
    const asked: string[][] = [];
    const keys = {
      activeAmong: async (ids: string[]) => {
        asked.push(ids);
        return new Set([OTHER_KEY]);
      },
    } as unknown as ApiKeysRepository;

    const liveStreams = { keyIds: () => [], endKey: () => 0 } as unknown as LiveCallStreams;
    await new WebhookListenEndings(link, messaging, listeners, liveStreams, keys, logger).checkKeys();

    expect(asked).toEqual([[KEY, OTHER_KEY]]);
    expect(revoked.response.ends()).toEqual([{ reason: 'key_revoked', message: expect.any(String) }]);
    expect(active.response.writableEnded).toBe(false);
  });
});
