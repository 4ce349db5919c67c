import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import type { ServiceName } from '@switchboard/contracts';
import type { Logger } from '@switchboard/observability';
import { inboxPrefix } from './bus-permissions';
import type { MessagingConfig } from './messaging.config';

/**
 * One connection per process. Reconnects forever (a restarted NATS is waited for, not fatal); the first connect
 * retries for a while so services can start before NATS in any order. `noAsyncTraces`: the client would otherwise
 * build an Error (a stack trace) for every request and publish, only to enrich a time-out's stack; our errors say
 * which subject failed instead. Replies come to the service's own inbox, the only one its NATS user may read.
 * A server that admits clients without credentials is said so in the log: the bus is then not locked.
 * `overrides.waitOnFirstConnect: false` makes one attempt that fails at once when NATS is unreachable
 * (`NatsLink.connectInBackground` retries it itself, so it can log and stop).
 */
export async function connectNats(
  config: MessagingConfig,
  service: ServiceName,
  logger?: Logger,
  overrides: Pick<ConnectionOptions, 'waitOnFirstConnect'> = {},
): Promise<NatsConnection> {
  const nc = await connect({
    servers: config.natsUrl,
    name: service,
    inboxPrefix: inboxPrefix(service),
    ...(config.credentials ? { user: config.credentials.user, pass: config.credentials.password } : {}),
    ...(config.tlsCaFile ? { tls: { caFile: config.tlsCaFile } } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    timeout: 10_000,
    noAsyncTraces: true,
    ...overrides,
  });
  if (nc.info && !nc.info.auth_required) {
    logger?.warn(
      { nats_url: config.natsUrl },
      'NATS admits clients without credentials: the bus is not locked (docs/operations.md, "The message bus")',
    );
  }
  return nc;
}
