import { Module, type DynamicModule } from '@nestjs/common';
import { STREAMS } from '@switchboard/contracts';
import { MessagingModule } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { PrismaModule } from '@switchboard/persistence';
import { messagingConfigFromEnv, provideOutboxRelay } from '@switchboard/service-runtime';
import { join } from 'node:path';
import { AccountsNatsController } from './accounts/accounts.nats.controller';
import { AccountsRepository } from './accounts/accounts.repository';
import { AccountsService } from './accounts/accounts.service';
import { AutoTopUpService } from './billing/auto-top-up.service';
import { BillingAdapter } from './billing/billing.adapter';
import { BillingCycleScheduler } from './billing/billing-cycle.scheduler';
import { BillingCycleService } from './billing/billing-cycle.service';
import { BillingNatsController } from './billing/billing.nats.controller';
import { MonthlyCharges } from './billing/monthly-charges';
import { OverdueSettlement } from './billing/overdue-settlement';
import { loadNumbersBillingConfig, type NumbersBillingConfig } from './config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from './config/tokens';
import { SecretBox } from './crypto/secret-box';
import { LedgerRepository } from './ledger/ledger.repository';
import { NUMBER_CHARGING } from './numbers/number-charging.port';
import { NumberLifecycle } from './numbers/number-lifecycle';
import { NumberOrdersRepository } from './numbers/number-orders.repository';
import { NumbersNatsController } from './numbers/numbers.nats.controller';
import { NumbersRepository } from './numbers/numbers.repository';
import { NumbersService } from './numbers/numbers.service';
import { WebhookSecretRotation } from './numbers/webhook-secret-rotation.service';
import { WebhookSecretsNatsController } from './numbers/webhook-secrets.nats.controller';
import { ProvisioningService } from './numbers/provisioning.service';
import { WebhookUrlPolicy } from './numbers/webhook-url';
import { NumbersOutbox } from './outbox/numbers-outbox';
import { paymentGatewayProvider, stripeClientProvider } from './payments/payment-gateway.provider';
import { CardSetupNatsController } from './payments/card-setup.nats.controller';
import { CardSetupService } from './payments/card-setup.service';
import { StripeCustomersRepository } from './payments/stripe-customers.repository';
import { StripeEventsConsumer } from './billing/stripe-events.consumer';
import { ProviderReconciliation } from './provisioning/provider-reconciliation';
import { ProviderReconciliationScheduler } from './provisioning/provider-reconciliation.scheduler';
import { SimulatedPaymentAdapter } from './payments/simulated-payment.adapter';
import { AutoTopUpAttemptsRepository } from './billing/auto-top-up-attempts.repository';
import { NumbersBillingPrisma, NumbersBillingTransactions } from './prisma/numbers-billing-prisma';
import { TalkTimeAllowance } from './talk-time/allowance';
import { TalkTimeAdjustmentConsumer } from './talk-time/talk-time-adjustment.consumer';
import { TalkTimeAdjustmentService } from './talk-time/talk-time-adjustment.service';
import { TalkTimeConsumer } from './talk-time/talk-time.consumer';
import { TALK_TIME_BILLING } from './talk-time/talk-time-billing.port';
import { TalkTimeService } from './talk-time/talk-time.service';
import { TalkTimeRepository } from './talk-time/talk-time.repository';
import { SimulatedTelephonyNatsController } from './telephony/simulated-telephony.nats.controller';
import { SimulatedTelephonyAdapter } from './telephony/simulated-telephony.adapter';
import { telephonyProvider } from './telephony/telephony.provider';
import { AgentNatsController } from './agent/agent.nats.controller';
import { agentRuntimeProvider } from './agent/agent-runtime.provider';
import { AgentService } from './agent/agent.service';
import { AgentSync } from './agent/agent-sync';
import { NumberAgentsAdapter } from './agent/number-agents.adapter';
import { NumberAgentsRepository } from './agent/number-agents.repository';
import { SimulatedAgentRuntime } from './agent/simulated-agent-runtime.adapter';
import { NUMBER_AGENTS } from './numbers/number-agent.port';

export interface NumbersBillingOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

@Module({})
export class NumbersBillingModule {
  static forRoot({ env, logger }: NumbersBillingOptions): DynamicModule {
    const config = loadNumbersBillingConfig(env);
    if (config.encryptionKeyFile) {
      logger.warn(
        { file: config.encryptionKeyFile },
        'SECRETS_ENCRYPTION_KEY not set: using the development key kept in this file',
      );
    }
    if (config.egress.allowedPrivateHosts.size > 0) {
      logger.warn(
        { hosts: [...config.egress.allowedPrivateHosts] },
        'WEBHOOK_ALLOWED_PRIVATE_HOSTS is set: these hosts may receive webhooks on private addresses (local testing only)',
      );
    }
    return {
      module: NumbersBillingModule,
      // NATS request handlers (`@RpcPattern`) and durable event consumers (`@DurableEventPattern`), served by the
      // message servers `startMessaging` connects (bootstrap.ts).
      controllers: [
        AccountsNatsController,
        NumbersNatsController,
        WebhookSecretsNatsController,
        BillingNatsController,
        CardSetupNatsController,
        AgentNatsController,
        SimulatedTelephonyNatsController,
        TalkTimeConsumer,
        TalkTimeAdjustmentConsumer,
        // Stripe's payment results, only where Stripe is configured (docs/adr/0131).
        ...(config.stripe ? [StripeEventsConsumer] : []),
      ],
      imports: [
        MessagingModule.forRoot({ service: 'numbers-billing', logger, config: messagingConfigFromEnv(env) }),
        PrismaModule.forRoot({
          client: NumbersBillingPrisma,
          appName: 'numbers-billing',
          migrationsDir: join(__dirname, '..', 'prisma', 'migrations'),
          env,
        }),
      ],
      providers: [
        { provide: NUMBERS_BILLING_CONFIG, useValue: config },
        {
          provide: SecretBox,
          useFactory: (c: NumbersBillingConfig) => new SecretBox(c.encryption),
          inject: [NUMBERS_BILLING_CONFIG],
        },
        // Ports: the simulated adapters are the default (and the operator routes drive them).
        SimulatedTelephonyAdapter,
        // Twilio for live accounts when configured (docs/adr/0083); the simulated provider otherwise.
        telephonyProvider,
        SimulatedPaymentAdapter,
        // Stripe for live accounts when configured (docs/adr/0131); the simulated processor otherwise.
        stripeClientProvider,
        StripeCustomersRepository,
        paymentGatewayProvider,
        // Owners connect a card through Stripe Checkout in setup mode (docs/adr/0131).
        CardSetupService,
        // Retell for live accounts' agents when configured (docs/adr/0083); the simulated platform otherwise.
        SimulatedAgentRuntime,
        agentRuntimeProvider,
        NumberAgentsRepository,
        AgentSync,
        AgentService,
        NumberAgentsAdapter,
        { provide: NUMBER_AGENTS, useExisting: NumberAgentsAdapter },
        provideOutboxRelay(NumbersBillingTransactions, [STREAMS.numbers, STREAMS.billing]),
        NumbersBillingTransactions,
        AutoTopUpAttemptsRepository,
        NumbersOutbox,
        LedgerRepository,
        AccountsRepository,
        NumbersRepository,
        NumberOrdersRepository,
        NumberLifecycle,
        MonthlyCharges,
        OverdueSettlement,
        AutoTopUpService,
        // Numbers and talk time reach billing through their ports: billing imports them, not the other way round.
        BillingAdapter,
        { provide: NUMBER_CHARGING, useExisting: BillingAdapter },
        { provide: TALK_TIME_BILLING, useExisting: BillingAdapter },
        TalkTimeAllowance,
        TalkTimeService,
        TalkTimeAdjustmentService,
        TalkTimeRepository,
        AccountsService,
        WebhookUrlPolicy,
        ProvisioningService,
        NumbersService,
        WebhookSecretRotation,
        BillingCycleService,
        BillingCycleScheduler,
        ProviderReconciliation,
        ProviderReconciliationScheduler,
      ],
    };
  }
}
