import type { INestApplication } from '@nestjs/common';
import type { ServiceName } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { EVENT_CONSUMER_SETTINGS, JetStreamServer, type EventConsumerSettings } from './jetstream.server';
import type { MessagingConfig } from './messaging.config';
import type { NatsLink } from './nats-link';
import { NatsRpcServer } from './nats-rpc.server';
import type { OutageLog } from './outage-log';
import { MESSAGING_CONFIG, NATS_LINK, RPC_OUTAGES, SERVICE_NAME } from './tokens';

export interface StartMessagingOptions {
  /** Serve the app's `@RpcPattern` handlers and its health subject (default true; the gateway only sends). */
  requests?: boolean;
  /**
   * Start the event consumers in the background once NATS answers, retrying while JetStream is not ready (the
   * gateway, which serves HTTP before NATS answers). Default false: the start waits for them, and fails with them.
   */
  eventsInBackground?: boolean;
}

/**
 * Connects the app's message servers as Nest hybrid-app microservices, on the connection of its `MessagingModule`,
 * and starts them: `NatsRpcServer` (Nest's NATS transport) for `@RpcPattern` handlers and `JetStreamServer` for
 * `@DurableEventPattern` handlers. Closing the app closes them: they stop taking messages and let the ones started
 * finish before the connection is drained.
 */
export interface MessageServers {
  requests?: NatsRpcServer;
  events: JetStreamServer;
}

export async function startMessaging(
  app: INestApplication,
  options: StartMessagingOptions = {},
): Promise<MessageServers> {
  const link = app.get<NatsLink>(NATS_LINK);
  const config = app.get<MessagingConfig>(MESSAGING_CONFIG);
  const logger = app.get<Logger>(LOGGER);
  const servers: MessageServers = {
    events: new JetStreamServer(link, config, logger, {
      background: options.eventsInBackground,
      settings: app.get<EventConsumerSettings>(EVENT_CONSUMER_SETTINGS),
    }),
  };
  if (options.requests !== false) {
    const service = app.get<ServiceName>(SERVICE_NAME);
    const outages = app.get<OutageLog>(RPC_OUTAGES);
    servers.requests = new NatsRpcServer({ link, config, service, logger, outages });
    app.connectMicroservice({ strategy: servers.requests });
  }
  app.connectMicroservice({ strategy: servers.events });
  await app.startAllMicroservices();
  return servers;
}
