import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  DEFAULT_RETRY_AFTER_SECONDS,
  HEADERS,
  markLivemode,
  ServiceError,
  healthRpc,
  type HealthReply,
  type RpcDescriptor,
  type RpcReply,
  type ServiceName,
} from '@switchboard/contracts';
import { DatabaseHealth, isDatabaseUnavailable } from '@switchboard/persistence';
import { LOGGER, type Logger } from '@switchboard/observability';
import { MESSAGING_CONFIG, NATS_CONNECTION, SERVICE_NAME } from './tokens';
import { rpcSubject, type MessagingConfig } from './messaging.config';
import { contextFromHeaders } from './trace-context';
import { OutageLog } from './outage-log';
import { RPC_HANDLER, type RpcContext } from './rpc-handler.decorator';
import { validateMessage } from './validation';

const tracer = trace.getTracer('switchboard.messaging');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type BoundHandler = (request: object, ctx: RpcContext) => Promise<unknown>;

/**
 * Finds every `@RpcHandler` method at start-up and serves it on its subject in a queue group named after the
 * service, so replicas share the load. Each request is validated, run in a span that continues the caller's
 * trace, and answered with `{ ok, data }` or `{ ok: false, error }`; unexpected errors are logged, not leaked.
 * A handler that failed because the database is unreachable is answered `service_unavailable` (503, retryable),
 * not `internal_error`, and the outage is logged once per incident (docs/adr/0059-retryable-answers-and-outages.md).
 */
@Injectable()
export class RpcServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly outages: OutageLog;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    @Inject(SERVICE_NAME) private readonly service: ServiceName,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly database?: DatabaseHealth,
  ) {
    this.outages = new OutageLog(logger);
  }

  onApplicationBootstrap(): void {
    // Every service answers its health subject; the gateway's /readyz asks each one, and shows a database that is down.
    this.serve(healthRpc(this.service), () => this.health());
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const method = instance[name] as (...args: unknown[]) => Promise<unknown>;
        const rpc = this.reflector.get<RpcDescriptor<object, unknown> | undefined>(RPC_HANDLER, method);
        if (rpc) this.serve(rpc, method.bind(instance) as BoundHandler);
      }
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Stop taking requests, then let the ones already started finish, before the connection is drained.
    for (const sub of this.subscriptions) sub.unsubscribe();
    await Promise.allSettled([...this.inFlight]);
  }

  private async health(): Promise<HealthReply> {
    if (!this.database) return { service: this.service, status: 'ok' };
    const database = (await this.database.ping()) ? 'ok' : 'down';
    if (database === 'ok') this.outages.recovered('database');
    return { service: this.service, status: database === 'ok' ? 'ok' : 'unavailable', checks: { database } };
  }

  private serve(rpc: RpcDescriptor<object, unknown>, handler: BoundHandler): void {
    const subject = rpcSubject(this.config, rpc.subject);
    const sub = this.nc.subscribe(subject, {
      queue: this.service,
      callback: (err, msg) => {
        if (err) {
          this.logger.error({ err, subject }, 'rpc subscription failed');
          return;
        }
        const done = this.handle(rpc, handler, msg).finally(() => this.inFlight.delete(done));
        this.inFlight.add(done);
      },
    });
    this.subscriptions.push(sub);
    this.logger.debug({ subject }, 'serving rpc');
  }

  private async handle(rpc: RpcDescriptor<object, unknown>, handler: BoundHandler, msg: Msg): Promise<void> {
    const parent = contextFromHeaders(msg.headers);
    const span = tracer.startSpan(
      `${rpc.subject} process`,
      { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject } },
      parent,
    );
    await context.with(trace.setSpan(parent, span), async () => {
      let reply: RpcReply<unknown>;
      try {
        const ctx: RpcContext = {
          accountId: msg.headers?.get(HEADERS.accountId) || undefined,
          requestId: msg.headers?.get(HEADERS.requestId) || undefined,
        };
        const body = msg.data.length ? JSON.parse(decoder.decode(msg.data)) : {};
        const request = await validateMessage(rpc.request, body);
        const data = await handler(request, ctx);
        const livemode = msg.headers?.get(HEADERS.livemode);
        // `ok` first, then `data`: the client reads a success by how it begins (rpc-client.ts `requestJson`).
        reply = { ok: true, data: livemode ? markLivemode(data, livemode === 'true') : data };
        this.outages.recovered('database');
      } catch (error) {
        if (error instanceof ServiceError) {
          span.setAttribute('switchboard.error_code', error.code);
          reply = {
            ok: false,
            error: error.toBody(),
            ...(error.retryAfterSeconds !== undefined ? { retry_after_seconds: error.retryAfterSeconds } : {}),
          };
        } else if (isDatabaseUnavailable(error)) {
          span.setAttribute('switchboard.error_code', 'service_unavailable');
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'database unavailable' });
          this.outages.failed('database', error, { service: this.service, subject: rpc.subject });
          reply = {
            ok: false,
            error: {
              code: 'service_unavailable',
              message: `The ${this.service} database is unavailable; retry shortly.`,
            },
            retry_after_seconds: DEFAULT_RETRY_AFTER_SECONDS.service_unavailable,
          };
        } else if (error instanceof SyntaxError) {
          reply = { ok: false, error: { code: 'invalid_request', message: 'The message is not valid JSON.' } };
        } else {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          this.logger.error({ err: error, subject: rpc.subject }, 'rpc handler failed');
          reply = { ok: false, error: { code: 'internal_error', message: 'An unexpected error occurred.' } };
        }
      } finally {
        span.end();
      }
      if (msg.reply) msg.respond(encoder.encode(JSON.stringify(reply)));
    });
  }
}
