import { Module, type DynamicModule } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ApiKeyGuard, RateLimiter, RequestAuthenticator, RequestAuthRepository } from '../auth';
import { ClaimantModule } from '../claimant/claimant.module';
import { ConsoleModule } from '../console/console.module';
import { EndpointAlertsModule } from '../endpoint-alerts/endpoint-alerts.module';
import { GatewayCoreModule, type GatewayShared } from '../gateway-core.module';
import { IdempotencyModule } from '../idempotency';
import { BalanceHttpController } from './balance.http.controller';
import { DataSettingsHttpController } from './data-settings.http.controller';
import { CallsHttpController } from './calls.http.controller';
import { ClaimsHttpController } from './claims.http.controller';
import { FoundItemsHttpController } from './found-items.http.controller';
import { HealthController } from './health.controller';
import { LiveCallStreamsModule } from '../live-calls/live-call-streams.module';
import { LiveCallsHttpController } from './live-calls.http.controller';
import { LivemodeInterceptor } from './livemode.interceptor';
import { NumberAgentHttpController } from './number-agent.http.controller';
import { NumbersHttpController } from './numbers.http.controller';
import { PhoneLinesHttpController } from './phone-lines.http.controller';
import { ProviderWebhooksModule } from '../provider-webhooks/provider-webhooks.module';
import { WebhookVerificationHttpController } from './webhook-verification.http.controller';
import { WebhooksHttpController } from './webhooks.http.controller';
import { WebhookListenHttpController } from './webhook-listen.http.controller';
import { WebhookListenEndings } from './webhook-listen-endings';
import { WebhookListeners } from './webhook-listeners';

/**
 * The public API under /v1 on PORT: every route but the health probes is behind ApiKeyGuard. Beside it, the
 * claimant page's backend (`/claim/api/...`, docs/adr/0079), behind ClaimantGuard (a limit per client address), the
 * console (`/console/...`, docs/adr/0080), and the providers' webhooks (`/provider-webhooks/...`, docs/adr/0083),
 * whose signatures are their credential.
 */
@Module({})
export class PublicApiModule {
  static forRoot(shared: GatewayShared): DynamicModule {
    return {
      module: PublicApiModule,
      // The console's API shares the public port (docs/adr/0080); its routes live under /console/api, outside /v1,
      // and the claimant page's under /claim/api (ClaimantModule).
      // EndpointAlertsModule: the owners' mail when a webhook endpoint is disabled (docs/adr/0075); once per process.
      // ProviderWebhooksModule: the providers' webhooks (outside /v1, no key) and the outbox relay of their events
      // (ADR 0083). LiveCallStreamsModule: the live call streams, the same instance the console's route opens through.
      imports: [
        GatewayCoreModule.forRoot(shared),
        ConsoleModule,
        ClaimantModule,
        EndpointAlertsModule,
        ProviderWebhooksModule,
        LiveCallStreamsModule,
        // What `@Idempotent()` routes (numbers, found items, claims) need.
        IdempotencyModule,
      ],
      controllers: [
        HealthController,
        NumbersHttpController,
        NumberAgentHttpController,
        CallsHttpController,
        LiveCallsHttpController,
        FoundItemsHttpController,
        ClaimsHttpController,
        BalanceHttpController,
        DataSettingsHttpController,
        PhoneLinesHttpController,
        WebhooksHttpController,
        WebhookVerificationHttpController,
        WebhookListenHttpController,
      ],
      providers: [
        RequestAuthRepository,
        RequestAuthenticator,
        RateLimiter,
        ApiKeyGuard,
        // The `webhook/listen` streams, ended when the server closes, their key is revoked, their number released or
        // their lifetime over (docs/adr/0128).
        WebhookListeners,
        WebhookListenEndings,
        // `livemode` on what an API key's requests answer (docs/adr/0087-test-mode.md).
        { provide: APP_INTERCEPTOR, useClass: LivemodeInterceptor },
      ],
    };
  }
}
