import { Module, type DynamicModule } from '@nestjs/common';
import { ApiKeyGuard, RateLimiter, RequestAuthenticator, RequestAuthRepository } from '../auth';
import { GatewayCoreModule, type GatewayShared } from '../gateway-core.module';
import { IdempotencyInterceptor, IdempotencyRepository, IdempotencyService } from '../idempotency';
import { BalanceHttpController } from './balance.http.controller';
import { CallsHttpController } from './calls.http.controller';
import { ClaimsHttpController } from './claims.http.controller';
import { FoundItemsHttpController } from './found-items.http.controller';
import { HealthController } from './health.controller';
import { NumbersHttpController } from './numbers.http.controller';
import { WebhookVerificationHttpController } from './webhook-verification.http.controller';
import { WebhooksHttpController } from './webhooks.http.controller';

/** The public API under /v1 on PORT: every route but the health probes is behind ApiKeyGuard. */
@Module({})
export class PublicApiModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: PublicApiModule,
      imports: [GatewayCoreModule.forRoot(shared)],
      controllers: [
        HealthController,
        NumbersHttpController,
        CallsHttpController,
        FoundItemsHttpController,
        ClaimsHttpController,
        BalanceHttpController,
        WebhooksHttpController,
        WebhookVerificationHttpController,
      ],
      providers: [
        RequestAuthRepository,
        RequestAuthenticator,
        RateLimiter,
        ApiKeyGuard,
        // What `@Idempotent()` routes (numbers, found items, claims) need.
        IdempotencyRepository,
        IdempotencyService,
        IdempotencyInterceptor,
      ],
    };
  }
}
