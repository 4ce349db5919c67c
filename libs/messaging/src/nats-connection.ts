import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import type { MessagingConfig } from './messaging.config';

/**
 * One connection per process. Reconnects forever (a restarted NATS is waited for, not fatal); the first connect
 * retries for a while so services can start before NATS in any order. `noAsyncTraces`: the client would otherwise
 * build an Error (a stack trace) for every request and publish, only to enrich a time-out's stack; our errors say
 * which subject failed instead. `overrides.waitOnFirstConnect: false` makes one attempt that fails at once when NATS
 * is unreachable (`NatsLink.connectInBackground` retries it itself, so it can log and stop).
 */
export async function connectNats(config: MessagingConfig, name: string, overrides: Pick<ConnectionOptions, 'waitOnFirstConnect'> = {}): Promise<NatsConnection> {
  return connect({
    servers: config.natsUrl,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    timeout: 10_000,
    noAsyncTraces: true,
    ...overrides,
  });
}
