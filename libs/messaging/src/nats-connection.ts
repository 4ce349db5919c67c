import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { MessagingConfig } from './messaging.config';

/**
 * One connection per process. Reconnects forever (a restarted NATS is waited for, not fatal); the first connect
 * retries for a while so services can start before NATS in any order.
 */
export async function connectNats(config: MessagingConfig, name: string): Promise<NatsConnection> {
  return connect({
    servers: config.natsUrl,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    timeout: 10_000,
  });
}
