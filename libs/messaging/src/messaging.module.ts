import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceName } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { connectNats } from './nats-connection';
import { NatsLink } from './nats-link';
import type { MessagingConfig } from './messaging.config';
import { RpcClient } from './rpc-client';
import { RpcServer } from './rpc-server';
import { MESSAGING_CONFIG, NATS_CONNECTION, NATS_LINK, SERVICE_NAME } from './tokens';

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
  /** Serve `@RpcHandler`s and the health subject (default true; the gateway only sends). */
  serve?: boolean;
}

@Injectable()
class NatsConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    // Runs after every beforeApplicationShutdown hook: servers, consumers and relays have stopped taking work.
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

/** NATS for a service: one connection, the typed RPC client, and the server for its `@RpcHandler`s. */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    const { config } = options;
    const serve = options.serve !== false;
    const { link, logger } = options;
    // With a link, the connection exists only once NATS answered: provided only to a server, which needs it to start.
    const connection: Provider[] = link
      ? serve
        ? [{ provide: NATS_CONNECTION, useFactory: () => link.connected() }]
        : []
      : [
          { provide: NATS_CONNECTION, useFactory: () => connectNats(config, options.service, logger) },
          NatsConnectionCloser,
        ];
    return {
      module: MessagingModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: MESSAGING_CONFIG, useValue: config },
        { provide: SERVICE_NAME, useValue: options.service },
        { provide: LOGGER, useValue: options.logger },
        ...connection,
        link
          ? { provide: NATS_LINK, useValue: link }
          : {
              provide: NATS_LINK,
              useFactory: (nc: NatsConnection) => NatsLink.follow(nc, logger),
              inject: [NATS_CONNECTION],
            },
        RpcClient,
        ...(serve ? [RpcServer] : []),
      ],
      exports: [
        MESSAGING_CONFIG,
        SERVICE_NAME,
        LOGGER,
        NATS_LINK,
        ...(connection.length ? [NATS_CONNECTION] : []),
        RpcClient,
      ],
    };
  }
}
