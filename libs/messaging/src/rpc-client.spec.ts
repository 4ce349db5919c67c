import {
  RequestError,
  NoRespondersError,
  TimeoutError,
  type MsgHdrs,
  type NatsConnection,
  type Status,
} from '@nats-io/transport-node';
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
 * A connection whose status events the test emits (to every listener, as nats.js does), and whose requests are
 * answered at once, as Nest's server replies. It has no `subscribe`: a request must not open a subscription of its own.
 */
function fakeConnection() {
  const listeners: { waiting: ((result: IteratorResult<Status>) => void)[]; queued: Status[] }[] = [];
  const request = jest.fn((subject: string, _data: string, _options: { timeout: number; headers?: MsgHdrs }) => {
    const text = JSON.stringify({ response: { status: 'ok' }, isDisposed: true });
    const data = new TextEncoder().encode(text);
    return Promise.resolve({ subject, data, json: () => JSON.parse(text) as unknown });
  });
  const nc = {
    request,
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

describe("RpcClient on the connection's muxed request", () => {
  const config = { natsUrl: 'nats://unused', prefix: 'test', requestTimeoutMs: 30_000 };
  const rpc = healthRpc('numbers-billing');

  it("asks through the connection's request with the call's time-out, or the configured one", async () => {
    const { nc, request } = fakeConnection();
    const client = new RpcClient(nc, config);
    await client.request(rpc, {}, { timeoutMs: 750 });
    await client.request(rpc, {});
    expect(request.mock.calls.map(([subject, , options]) => [subject, options.timeout])).toEqual([
      [`test.${rpc.subject}`, 750],
      [`test.${rpc.subject}`, 30_000],
    ]);
  });

  it("answers service_unavailable when no service subscribes (NATS's no-responders status)", async () => {
    const { nc, request } = fakeConnection();
    request.mockRejectedValueOnce(new RequestError('503', { cause: new NoRespondersError(`test.${rpc.subject}`) }));
    await expect(new RpcClient(nc, config).request(rpc, {})).rejects.toMatchObject({
      code: 'service_unavailable',
      message: `No service is answering ${rpc.subject}; retry shortly.`,
    });
  });

  it('answers service_unavailable when the reply does not come in time', async () => {
    const { nc, request } = fakeConnection();
    request.mockRejectedValueOnce(new TimeoutError());
    await expect(new RpcClient(nc, config).request(rpc, {})).rejects.toMatchObject({
      code: 'service_unavailable',
      message: `The service behind ${rpc.subject} did not answer in time; retry shortly.`,
    });
  });

  it("passes on the service's refusal as a ServiceError", async () => {
    const { nc, request } = fakeConnection();
    const text = JSON.stringify({ err: { code: 'not_found', message: 'No such number.' }, isDisposed: true });
    request.mockResolvedValueOnce({
      subject: 'reply',
      data: new TextEncoder().encode(text),
      json: () => JSON.parse(text) as unknown,
    });
    const refused = await new RpcClient(nc, config).request(rpc, {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'not_found', message: 'No such number.' });
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
