import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceName } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { servesDeadLetterReplays } from './bus-permissions';
import { deadLetterReplayControllerFor } from './dead-letters.nats.controller';
import { healthControllerFor } from './health.nats.controller';
import { EVENT_CONSUMER_SETTINGS, type EventConsumerSettings } from './jetstream.server';
import { connectNats } from './nats-connection';
import { NatsLink } from './nats-link';
import type { MessagingConfig } from './messaging.config';
import { OutageLog } from './outage-log';
import { RpcClient } from './rpc-client';
import { RpcErrorFilter } from './rpc-error.filter';
import { MESSAGING_CONFIG, NATS_CONNECTION, NATS_LINK, RPC_OUTAGES, SERVICE_NAME } from './tokens';

export interface MessagingModuleOptions {
  service: ServiceName;
  logger: Logger;
  /** From `messagingConfigFromEnv` (libs/service-runtime). */
  config: MessagingConfig;
  /**
   * A link the caller owns and closes (the gateway shares one between its two servers, and starts before NATS
   * answers). Without it the module connects, waiting for NATS, and closes the connection on shutdown.
   */
  link?: NatsLink;
  /** Answer the service's health subject (default true; the gateway only sends). */
  serve?: boolean;
  /** Durable consumers' settings read from the environment, by durable name, over their patterns' own. */
  consumerSettings?: EventConsumerSettings;
}

@Injectable()
class NatsConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    // Runs after the app's servers closed (their in-flight messages finished) and every relay stopped.
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

/**
 * NATS for a service: one connection (`NATS_LINK`, `NATS_CONNECTION`), the typed request client (`RpcClient`), the
 * health subject, the replay subject of its streams' dead letters, and what `@RpcPattern` handlers inject (`RpcErrorFilter`, the outage log). The servers that run the
 * handlers are connected to the app by `startMessaging`.
 */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    const { config, link, logger, service } = options;
    const serve = options.serve !== false;
    // With a link, the connection exists only once NATS answered: provided only to a server, which needs it to start.
    const connection: Provider[] = link
      ? serve
        ? [{ provide: NATS_CONNECTION, useFactory: () => link.connected() }]
        : []
      : [{ provide: NATS_CONNECTION, useFactory: () => connectNats(config, service, logger) }, NatsConnectionCloser];
    return {
      module: MessagingModule,
      controllers: serve
        ? [
            healthControllerFor(service),
            // A stream's owner replays its dead letters (the gateway, which serves nothing, replays its own itself).
            ...(servesDeadLetterReplays(service) ? [deadLetterReplayControllerFor(service)] : []),
          ]
        : [],
      providers: [
        { provide: MESSAGING_CONFIG, useValue: config },
        { provide: SERVICE_NAME, useValue: service },
        { provide: LOGGER, useValue: logger },
        { provide: RPC_OUTAGES, useFactory: () => new OutageLog(logger) },
        { provide: EVENT_CONSUMER_SETTINGS, useValue: options.consumerSettings ?? {} },
        ...connection,
        link
          ? { provide: NATS_LINK, useValue: link }
          : {
              provide: NATS_LINK,
              useFactory: (nc: NatsConnection) => NatsLink.follow(nc, logger),
              inject: [NATS_CONNECTION],
            },
        {
          provide: RpcClient,
          useFactory: (natsLink: NatsLink) => new RpcClient(natsLink, config),
          inject: [NATS_LINK],
        },
        RpcErrorFilter,
      ],
      exports: [
        MESSAGING_CONFIG,
        SERVICE_NAME,
        LOGGER,
        NATS_LINK,
        RPC_OUTAGES,
        EVENT_CONSUMER_SETTINGS,
        ...(connection.length ? [NATS_CONNECTION] : []),
        RpcClient,
        RpcErrorFilter,
      ],
    };
  }
}
