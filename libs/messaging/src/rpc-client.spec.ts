import type { NatsConnection, Status } from '@nats-io/transport-node';
import { ServiceError, healthRpc } from '@switchboard/contracts';
import { RpcClient } from './rpc-client';

/**
 * A connection whose status events the test emits (to every listener, as nats.js does), and whose requests (a
 * publish with a reply subject) are answered `ok` at once on the inbox subscribed to.
 */
function fakeConnection() {
  const listeners: { waiting: ((result: IteratorResult<Status>) => void)[]; queued: Status[] }[] = [];
  let inbox: ((error: Error | null, msg: unknown) => void) | undefined;
  const request = jest.fn((_subject: string, _data: Uint8Array, { reply }: { reply: string }) => {
    const data = new TextEncoder().encode(JSON.stringify({ ok: true, data: { status: 'ok' } }));
    queueMicrotask(() => inbox?.(null, { subject: reply, data }));
  });
  const nc = {
    publish: request,
    subscribe: (_subject: string, options: { callback: typeof inbox }) => {
      inbox = options.callback;
      return { unsubscribe: () => undefined };
    },
    isClosed: () => false,
    closed: () => new Promise(() => undefined),
    status: () => {
      const listener = { waiting: [] as ((result: IteratorResult<Status>) => void)[], queued: [] as Status[] };
      listeners.push(listener);
      return {
        [Symbol.asyncIterator]: () => ({
          next: () =>
            new Promise<IteratorResult<Status>>((resolve) =>
              listener.queued.length
                ? resolve({ value: listener.queued.shift()!, done: false })
                : listener.waiting.push(resolve),
            ),
        }),
      };
    },
  };
  const emit = async (type: string) => {
    const status = { type } as Status;
    for (const listener of listeners) {
      const next = listener.waiting.shift();
      if (next) next({ value: status, done: false });
      else listener.queued.push(status);
    }
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { nc: nc as unknown as NatsConnection, request, emit };
}

describe('RpcClient while NATS is away', () => {
  const config = { natsUrl: 'nats://unused', prefix: 'test', requestTimeoutMs: 30_000 };
  const rpc = healthRpc('numbers-billing');

  it('refuses at once with service_unavailable between a disconnect and the reconnect, then sends again', async () => {
    const { nc, request, emit } = fakeConnection();
    const client = new RpcClient(nc, config);
    await expect(client.request(rpc, {})).resolves.toEqual({ status: 'ok' });
    expect(request).toHaveBeenCalledTimes(1);

    await emit('disconnect');
    const refused = await client.request(rpc, {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).code).toBe('service_unavailable');
    expect((refused as ServiceError).message).toContain('message bus is unreachable');
    expect(request).toHaveBeenCalledTimes(1);

    await emit('reconnecting');
    await expect(client.request(rpc, {})).rejects.toMatchObject({ code: 'service_unavailable' });
    await emit('reconnect');
    await expect(client.request(rpc, {})).resolves.toEqual({ status: 'ok' });
    expect(request).toHaveBeenCalledTimes(2);
  });
});
