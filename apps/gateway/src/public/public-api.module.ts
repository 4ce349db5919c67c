import { Module, type DynamicModule } from '@nestjs/common';
import { ApiKeyGuard, RateLimiter, RequestAuthenticator, RequestAuthRepository } from '../auth';
import { ConsoleModule } from '../console/console.module';
import { GatewayCoreModule, type GatewayShared } from '../gateway-core.module';
import { IdempotencyInterceptor, IdempotencyRepository, IdempotencyService } from '../idempotency';
import { BalanceHttpController } from './balance.http.controller';
import { CallsHttpController } from './calls.http.controller';
import { ClaimsHttpController } from './claims.http.controller';
import { FoundItemsHttpController } from './found-items.http.controller';
import { HealthController } from './health.controller';
import { NumbersHttpController } from './numbers.http.controller';

/** The public API under /v1 on PORT: every route but the health probes is behind ApiKeyGuard. The console beside it. */
@Module({})
export class PublicApiModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: PublicApiModule,
      // The console's API shares the public port (docs/adr/0065); its routes live under /console/api, outside /v1.
      imports: [GatewayCoreModule.forRoot(shared), ConsoleModule],
      controllers: [
        HealthController,
        NumbersHttpController,
        CallsHttpController,
        FoundItemsHttpController,
        ClaimsHttpController,
        BalanceHttpController,
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
