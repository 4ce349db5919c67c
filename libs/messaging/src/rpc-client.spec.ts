import type { NatsConnection, Status } from '@nats-io/transport-node';
import { ServiceError, healthRpc } from '@switchboard/contracts';
import { RpcClient } from './rpc-client';

/** A connection whose status events the test emits, and whose requests answer `ok` at once. */
function fakeConnection() {
  const waiting: ((result: IteratorResult<Status>) => void)[] = [];
  const queued: Status[] = [];
  const request = jest.fn(async () => ({
    data: new TextEncoder().encode(JSON.stringify({ ok: true, data: { status: 'ok' } })),
  }));
  const nc = {
    request,
    isClosed: () => false,
    closed: () => new Promise(() => undefined),
    status: () => ({
      [Symbol.asyncIterator]: () => ({
        next: () =>
          new Promise<IteratorResult<Status>>((resolve) =>
            queued.length ? resolve({ value: queued.shift()!, done: false }) : waiting.push(resolve),
          ),
      }),
    }),
  };
  const emit = async (type: string) => {
    const status = { type } as Status;
    const next = waiting.shift();
    if (next) next({ value: status, done: false });
    else queued.push(status);
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
