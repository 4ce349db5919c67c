import { Global, Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, type MessagingConfig, type NatsLink } from '@switchboard/messaging';
import { Readiness } from '@switchboard/service-runtime';
import type { Logger } from '@switchboard/observability';
import { ApiKeyRevocations } from './api-keys/api-key-revocations';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import type { GatewayConfig } from './config/gateway.config';
import { GATEWAY_CONFIG } from './config/tokens';
import { EmailPort, SimulatedEmailAdapter } from './email';
import { GatewayPrisma, GatewayTransactions } from './prisma/gateway-prisma';

/** What the public and operator servers share in one process: config, logger, database and NATS. */
export interface GatewayShared {
  config: GatewayConfig;
  messaging: MessagingConfig;
  logger: Logger;
  prisma: GatewayPrisma;
  /** NATS, connected in the background: the gateway listens (and answers 503) before NATS answers. */
  nats: NatsLink;
  /** Drained by `runService` on SIGTERM: /readyz answers 503 while the servers close. */
  readiness: Readiness;
}

@Global()
@Module({})
export class GatewayCoreModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: GatewayCoreModule,
      imports: [
        MessagingModule.forRoot({
          service: 'gateway',
          logger: shared.logger,
          config: shared.messaging,
          link: shared.nats,
          serve: false,
        }),
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: shared.config },
        { provide: GatewayPrisma, useValue: shared.prisma },
        GatewayTransactions,
        { provide: Readiness, useValue: shared.readiness },
        ApiKeysRepository,
        ApiKeyRevocations,
        ApiKeysService,
        // Outgoing mail: the simulated adapter is the only one yet; a real one replaces this binding.
        SimulatedEmailAdapter,
        { provide: EmailPort, useExisting: SimulatedEmailAdapter },
      ],
      exports: [
        GATEWAY_CONFIG,
        GatewayPrisma,
        GatewayTransactions,
        Readiness,
        ApiKeysRepository,
        ApiKeysService,
        SimulatedEmailAdapter,
        EmailPort,
        MessagingModule,
      ],
    };
  }
}
