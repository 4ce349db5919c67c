import { Module, type DynamicModule } from '@nestjs/common';
import type { Resolver } from '@switchboard/egress';
import { STREAMS } from '@switchboard/contracts';
import { MessagingModule, SealingKeyPair } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { PrismaModule } from '@switchboard/persistence';
import { messagingConfigFromEnv, provideOutboxRelay } from '@switchboard/service-runtime';
import { join } from 'node:path';
import { DISPATCHER_CONFIG, SEALING_KEY_PAIR } from './config/tokens';
import { loadWebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { CallCompletedConsumer } from './deliveries/call-completed.consumer';
import { DeliverCallCompleted } from './deliveries/deliver-call-completed';
import { DeliveriesNatsController } from './deliveries/deliveries.nats.controller';
import { DeliveriesRepository } from './deliveries/deliveries.repository';
import { DeliveryLogService } from './deliveries/delivery-log.service';
import { DeliveryBacklogGauges } from './deliveries/delivery-backlog.gauges';
import { dispatcherConsumerSettings } from './deliveries/dispatcher-consumers';
import { NumberEventsConsumer } from './deliveries/number-events.consumer';
import { NumberStatesRepository } from './deliveries/number-states.repository';
import { OptInCallEventsConsumer } from './deliveries/opt-in-call-events.consumer';
import { BillingEventsConsumer } from './deliveries/billing-events.consumer';
import { HostLimiter } from './deliveries/host-limiter';
import { EndpointHealth } from './endpoints/endpoint-health';
import { WebhookEndpointsRepository } from './endpoints/webhook-endpoints.repository';
import { ENDPOINT_HEALTH } from './endpoints/endpoint-health.port';
import { DetachedDeliveriesWorker } from './events/detached-deliveries.worker';
import { WebhookEventsNatsController } from './events/webhook-events.nats.controller';
import { WebhookEventsRepository } from './events/webhook-events.repository';
import { WebhookEventsService } from './events/webhook-events.service';
import { WEBHOOK_RESOLVER, WebhookEgress, systemResolver } from './egress/webhook-egress';
import { WebhookDispatcherPrisma, WebhookDispatcherTransactions } from './prisma/webhook-dispatcher-prisma';
import { HttpsWebhookSender } from './webhook-sender/https-webhook-sender.adapter';
import { WEBHOOK_SENDER } from './webhook-sender/webhook-sender.port';
import { NatsWebhookCopies } from './webhook-copies/nats-webhook-copies.adapter';
import { WEBHOOK_COPIES } from './webhook-copies/webhook-copies.port';
import { KeptWebhookTargets } from './webhook-target/kept-webhook-targets';
import { NatsWebhookTargets } from './webhook-target/nats-webhook-targets.adapter';
import { WebhookTargetChanges } from './webhook-target/webhook-target-changes';
import { WEBHOOK_TARGETS } from './webhook-target/webhook-targets.port';

/** What an in-process host (tests, the e2e harness) may replace; a deployed dispatcher uses the defaults. */
export interface WebhookDispatcherOverrides {
  /** Resolves receiver host names (default: the system resolver). */
  resolver?: Resolver;
}

export interface WebhookDispatcherOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  overrides?: WebhookDispatcherOverrides;
}

@Module({})
export class WebhookDispatcherModule {
  static forRoot({ env, logger, overrides = {} }: WebhookDispatcherOptions): DynamicModule {
    const config = loadWebhookDispatcherConfig(env);
    return {
      module: WebhookDispatcherModule,
      // NATS request handlers (`@RpcPattern`) and durable event consumers (`@DurableEventPattern`), served by the
      // message servers `startMessaging` connects (bootstrap.ts).
      controllers: [
        DeliveriesNatsController,
        WebhookEventsNatsController,
        CallCompletedConsumer,
        OptInCallEventsConsumer,
        NumberEventsConsumer,
        BillingEventsConsumer,
      ],
      imports: [
        MessagingModule.forRoot({
          service: 'webhook-dispatcher',
          logger,
          config: messagingConfigFromEnv(env),
          // The dispatcher's concurrency and ack wait, read from its environment, for each of its consumers.
          consumerSettings: dispatcherConsumerSettings(config),
        }),
        PrismaModule.forRoot({
          client: WebhookDispatcherPrisma,
          appName: 'webhook-dispatcher',
          migrationsDir: join(__dirname, '..', 'prisma', 'migrations'),
          env,
        }),
      ],
      providers: [
        { provide: DISPATCHER_CONFIG, useValue: config },
        { provide: WEBHOOK_RESOLVER, useValue: overrides.resolver ?? systemResolver },
        // A key pair of this process's own, made at start and never stored: nothing is kept sealed for it, so each
        // replica and each restart simply has a new one (ADR 0128).
        { provide: SEALING_KEY_PAIR, useValue: SealingKeyPair.generate() },
        // Targets asked of numbers-billing, kept until this replica hears the number changed (ADR 0075).
        NatsWebhookTargets,
        {
          provide: KeptWebhookTargets,
          useFactory: (source: NatsWebhookTargets) => new KeptWebhookTargets(source),
          inject: [NatsWebhookTargets],
        },
        { provide: WEBHOOK_TARGETS, useExisting: KeptWebhookTargets },
        WebhookTargetChanges,
        { provide: WEBHOOK_SENDER, useValue: new HttpsWebhookSender({ extraCa: config.testExtraCa }) },
        // A copy of each signed delivery for the number's `webhook/listen` streams, on plain NATS (ADR 0128).
        { provide: WEBHOOK_COPIES, useClass: NatsWebhookCopies },
        WebhookEgress,
        HostLimiter,
        DeliveriesRepository,
        DeliverCallCompleted,
        NumberStatesRepository,
        DeliveryLogService,
        // webhook_deliveries_pending and the oldest one's age, for the backlog alerts (deploy/prometheus).
        DeliveryBacklogGauges,
        WebhookEventsRepository,
        WebhookEventsService,
        DetachedDeliveriesWorker,
        EndpointHealth,
        WebhookEndpointsRepository,
        WebhookDispatcherTransactions,
        { provide: ENDPOINT_HEALTH, useExisting: EndpointHealth },
        provideOutboxRelay(WebhookDispatcherTransactions, [STREAMS.webhooks]),
      ],
    };
  }
}
