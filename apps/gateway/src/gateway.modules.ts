import { Global, Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule, type MessagingConfig, type NatsLink } from '@switchboard/messaging';
import type { SqlPool } from '@switchboard/persistence';
import { Readiness } from '@switchboard/service-runtime';
import type { Logger } from 'pino';
import { AccountsAdminController } from './admin/accounts.admin.controller';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { ApiKeysAdminController } from './admin/api-keys.admin.controller';
import { LocationsAdminController } from './admin/locations.admin.controller';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { ApiKeyGuard } from './auth/api-key.guard';
import { RequestAuthRepository } from './auth/request-auth.repository';
import { RequestAuthenticator } from './auth/request-authenticator';
import type { GatewayConfig } from './config/gateway.config';
import { AUTH_SQL, GATEWAY_CONFIG, GATEWAY_LOGGER } from './config/tokens';
import { HealthController } from './health/health.controller';
import { BALANCE_ADMIN_CONTROLLERS, BALANCE_PROVIDERS, BALANCE_PUBLIC_CONTROLLERS } from './balance';
import { BILLING_ADMIN_CONTROLLERS, BILLING_PROVIDERS, BILLING_PUBLIC_CONTROLLERS } from './billing';
import { CALLS_ADMIN_CONTROLLERS, CALLS_PROVIDERS, CALLS_PUBLIC_CONTROLLERS } from './calls';
import { IDEMPOTENCY_PROVIDERS } from './idempotency';
import { LOSTFOUND_ADMIN_CONTROLLERS, LOSTFOUND_PROVIDERS, LOSTFOUND_PUBLIC_CONTROLLERS } from './lostfound';
import { NUMBERS_ADMIN_CONTROLLERS, NUMBERS_PROVIDERS, NUMBERS_PUBLIC_CONTROLLERS } from './numbers';
import { PROVIDER_ADMIN_CONTROLLERS, PROVIDER_PROVIDERS, PROVIDER_PUBLIC_CONTROLLERS } from './provider';
import { WEBHOOKS_ADMIN_CONTROLLERS, WEBHOOKS_PROVIDERS, WEBHOOKS_PUBLIC_CONTROLLERS } from './webhooks';
import { GatewayPrisma } from './prisma/gateway-prisma';
import { RateLimiter } from './rate-limit/rate-limiter';

/** What the public and operator servers share in one process: config, logger, database and NATS. */
export interface GatewayShared {
  config: GatewayConfig;
  messaging: MessagingConfig;
  logger: Logger;
  prisma: GatewayPrisma;
  /** Plain SQL for the statements run on every authenticated request (auth/request-auth.repository.ts). */
  authSql: SqlPool;
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
        MessagingModule.forRoot({ service: 'gateway', logger: shared.logger, config: shared.messaging, link: shared.nats, serve: false }),
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: shared.config },
        { provide: GATEWAY_LOGGER, useValue: shared.logger },
        { provide: GatewayPrisma, useValue: shared.prisma },
        { provide: AUTH_SQL, useValue: shared.authSql },
        { provide: Readiness, useValue: shared.readiness },
        ApiKeysRepository,
        ApiKeysService,
      ],
      exports: [GATEWAY_CONFIG, GATEWAY_LOGGER, GatewayPrisma, AUTH_SQL, Readiness, ApiKeysService, MessagingModule],
    };
  }
}

/** Feature providers both servers may need (forwarders, idempotency); each feature lists its own. */
const FEATURE_PROVIDERS = [
  ...IDEMPOTENCY_PROVIDERS,
  ...NUMBERS_PROVIDERS, ...CALLS_PROVIDERS, ...LOSTFOUND_PROVIDERS, ...WEBHOOKS_PROVIDERS, ...BILLING_PROVIDERS,
  ...BALANCE_PROVIDERS,
  ...PROVIDER_PROVIDERS,
];

/** The public API under /v1 on PORT. */
@Module({})
export class PublicApiModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: PublicApiModule,
      imports: [GatewayCoreModule.forRoot(shared)],
      controllers: [
        HealthController,
        ...NUMBERS_PUBLIC_CONTROLLERS,
        ...CALLS_PUBLIC_CONTROLLERS,
        ...LOSTFOUND_PUBLIC_CONTROLLERS,
        ...WEBHOOKS_PUBLIC_CONTROLLERS,
        ...BILLING_PUBLIC_CONTROLLERS,
        ...BALANCE_PUBLIC_CONTROLLERS,
        ...PROVIDER_PUBLIC_CONTROLLERS,
      ],
      providers: [RequestAuthRepository, RequestAuthenticator, RateLimiter, ApiKeyGuard, ...FEATURE_PROVIDERS],
    };
  }
}

/** The operator API under /admin on ADMIN_PORT (127.0.0.1 by default). */
@Module({})
export class AdminApiModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: AdminApiModule,
      imports: [GatewayCoreModule.forRoot(shared)],
      controllers: [
        AccountsAdminController,
        ApiKeysAdminController,
        LocationsAdminController,
        ...NUMBERS_ADMIN_CONTROLLERS,
        ...CALLS_ADMIN_CONTROLLERS,
        ...LOSTFOUND_ADMIN_CONTROLLERS,
        ...WEBHOOKS_ADMIN_CONTROLLERS,
        ...BILLING_ADMIN_CONTROLLERS,
        ...BALANCE_ADMIN_CONTROLLERS,
        ...PROVIDER_ADMIN_CONTROLLERS,
      ],
      providers: [AdminTokenGuard, ...FEATURE_PROVIDERS],
    };
  }
}
