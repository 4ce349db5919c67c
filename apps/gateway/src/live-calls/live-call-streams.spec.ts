import { EventEmitter } from 'node:events';
import type { NatsConnection } from '@nats-io/transport-node';
import type { LiveCallEvent, LiveCallEvents, LiveCallEventsQuery } from '@switchboard/contracts';
import type { MessagingConfig, NatsLink, RpcClient } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LiveCallStreams } from './live-call-streams';

const ACCOUNT = 'acct_00000000000000000001';
const SUBJECT = `sb.calls-live.v1.${ACCOUNT}`;

class FakeResponse extends EventEmitter {
  written = '';
  writableEnded = false;
  writableLength = 0;
  writeHead(): this {
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
  /** The ids of the events written, in order. */
  ids(): string[] {
    return [...this.written.matchAll(/^id: (\d+)$/gm)].map((match) => match[1]);
  }
}

type Handler = (error: Error | null, msg: { json: () => unknown }) => void;

/**
 * calls-media's side as a stream sees it: the log (`LiveCallsRpc.since`) and the publishes on the account's subject,
 * which the test makes in any order, or not at all.
 */
function setUp() {
  const handlers = new Map<string, Handler>();
  const nats = {
    subscribe: (subject: string, options: { callback: Handler }) => {
      handlers.set(subject, options.callback);
      return { unsubscribe: () => handlers.delete(subject), closed: new Promise<void>(() => undefined) };
    },
    flush: () => Promise.resolve(),
  };
  const link = { connection: nats as unknown as NatsConnection, state: 'connected' } as unknown as NatsLink;
  const log: LiveCallEvent[] = [];
  const reads: string[] = [];
  const rpc = {
    request: (_rpc: unknown, query: LiveCallEventsQuery): Promise<LiveCallEvents> => {
      const after = BigInt(query.after ?? '0');
      reads.push(String(after));
      const events = log.filter(
        (event) => BigInt(event.id) > after && (!query.call_id || event.call_id === query.call_id),
      );
      return Promise.resolve({ events, has_more: false, in_progress: true, last_id: log.at(-1)?.id ?? '0' });
    },
  } as unknown as RpcClient;
  const streams = new LiveCallStreams(
    link,
    { prefix: 'sb' } as MessagingConfig,
    { webhookListenMaxMs: 60_000 },
    rpc,
    createLogger('live-call-streams-spec', 'silent'),
  );
  const event = (id: number, callId = 'CA1'): LiveCallEvent => ({
    id: String(id),
    account_id: ACCOUNT,
    call_id: callId,
    type: 'turn',
    data: { call_id: callId, position: id, role: 'agent', text: `turn ${id}` },
    at: new Date().toISOString(),
  });
  /** Commits the event to the log (ids in commit order, as calls-media gives them). */
  const commit = (...events: LiveCallEvent[]) => log.push(...events);
  const publish = (e: LiveCallEvent) => handlers.get(SUBJECT)?.(null, { json: () => e });
  const open = async (callId?: string, lastEventId = '0') => {
    const response = new FakeResponse();
    const reply = { raw: response, hijack: () => undefined } as unknown as FastifyReply;
    await streams.open(
      { accountId: ACCOUNT, keyId: 'key_1', requestId: 'req_1', ...(callId ? { callId } : {}) },
      lastEventId,
      { id: 'req_1' } as unknown as FastifyRequest,
      reply,
    );
    return response;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
  return { streams, event, commit, publish, open, settle, reads };
}

describe('LiveCallStreams', () => {
  it('writes events published out of their commit order once each, in id order, reading the log for the gap', async () => {
    const { streams, event, commit, publish, open, settle } = setUp();
    commit(event(1), event(2));
    const response = await open(undefined, '1');
    expect(response.ids()).toEqual(['2']);

    // Two calls' events committed 3 then 4, published 4 then 3.
    commit(event(3, 'CA2'), event(4));
    publish(event(4));
    publish(event(3, 'CA2'));
    await settle();
    expect(response.ids()).toEqual(['2', '3', '4']);

    // A publish lost: the next one shows the gap, and the log fills it.
    commit(event(5), event(6));
    publish(event(6));
    await settle();
    expect(response.ids()).toEqual(['2', '3', '4', '5', '6']);
    streams.beforeApplicationShutdown();
  });

  it("keeps a call's stream to its call, whatever order the account's events come in", async () => {
    const { streams, event, commit, publish, open, settle } = setUp();
    const response = await open('CA1');
    commit(event(1, 'CA2'), event(2, 'CA1'), event(3, 'CA2'));
    publish(event(3, 'CA2'));
    publish(event(1, 'CA2'));
    publish(event(2, 'CA1'));
    await settle();
    expect(response.ids()).toEqual(['2']);
    streams.beforeApplicationShutdown();
  });

  it('starts a stream of all calls at the log as it is: events of calls before it are not replayed on a gap', async () => {
    const { streams, event, commit, publish, open, settle, reads } = setUp();
    // The replay of a new stream of all calls holds the calls in progress; the log already ran to 9.
    commit(...Array.from({ length: 9 }, (_, i) => event(i + 1, `CA${i}`)));
    const response = await open();
    const written = response.ids();
    commit(event(10));
    publish(event(10));
    await settle();
    expect(response.ids()).toEqual([...written, '10']);
    expect(reads).toHaveLength(1);
    streams.beforeApplicationShutdown();
  });
});
