import type { MsgHdrs, NatsConnection, Status } from '@nats-io/transport-node';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ServiceError, healthRpc } from '@switchboard/contracts';
import { RpcClient } from './rpc-client';

// Spans recorded in memory, the context kept by AsyncLocalStorage, as in a service that exports them.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
afterAll(() => provider.shutdown());

/**
 * A connection whose status events the test emits (to every listener, as nats.js does), and whose requests (a
 * publish with a reply subject) are answered at once on the inbox subscribed to, as Nest's server replies.
 */
function fakeConnection() {
  const listeners: { waiting: ((result: IteratorResult<Status>) => void)[]; queued: Status[] }[] = [];
  let inbox: ((error: Error | null, msg: unknown) => void) | undefined;
  const request = jest.fn((_subject: string, _data: Uint8Array, { reply }: { reply: string; headers?: MsgHdrs }) => {
    const text = JSON.stringify({ response: { status: 'ok' }, isDisposed: true });
    const data = new TextEncoder().encode(text);
    queueMicrotask(() => inbox?.(null, { subject: reply, data, json: () => JSON.parse(text) }));
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

describe("RpcClient's span", () => {
  const config = { natsUrl: 'nats://unused', prefix: 'test', requestTimeoutMs: 30_000 };
  const rpc = healthRpc('numbers-billing');
  const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
  const PARENT_ID = '00f067aa0ba902b7';
  beforeEach(() => exporter.reset());

  /** The `traceparent` the request carried on NATS. */
  const sentTraceparent = (request: ReturnType<typeof fakeConnection>['request']) =>
    request.mock.calls[0][2].headers?.get('traceparent');

  it('is a child of the recorded span that is active, and is the parent the service is told', async () => {
    const { nc, request } = fakeConnection();
    const parent = provider.getTracer('spec').startSpan('GET /v1/numbers');
    await context.with(trace.setSpan(context.active(), parent), () => new RpcClient(nc, config).request(rpc, {}));
    parent.end();

    const [sent] = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(sent.name).toBe(`${rpc.subject} request`);
    expect(sent.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(sentTraceparent(request)).toBe(`00-${parent.spanContext().traceId}-${sent.spanContext().spanId}-01`);
  });

  it('is not made under an active span that is not recorded: the trace is passed on as it is', async () => {
    const { nc, request } = fakeConnection();
    const unsampled = trace.wrapSpanContext({ traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: 0 });
    await context.with(trace.setSpan(context.active(), unsampled), () => new RpcClient(nc, config).request(rpc, {}));

    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(sentTraceparent(request)).toBe(`00-${TRACE_ID}-${PARENT_ID}-00`);
  });

  it('starts a trace of its own when no span is active', async () => {
    const { nc, request } = fakeConnection();
    await new RpcClient(nc, config).request(rpc, {});

    const [sent] = exporter.getFinishedSpans();
    expect(sent.parentSpanContext).toBeUndefined();
    expect(sentTraceparent(request)).toBe(`00-${sent.spanContext().traceId}-${sent.spanContext().spanId}-01`);
  });
});
