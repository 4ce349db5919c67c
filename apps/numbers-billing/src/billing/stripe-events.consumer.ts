import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { StripeEventReceivedEvent, type ProviderEventReceivedData } from '@switchboard/contracts';
import { EventConsumer, MESSAGING_CONFIG, NATS_CONNECTION, type MessagingConfig } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { AutoTopUpService } from './auto-top-up.service';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import { CardSetupService } from '../payments/card-setup.service';
import { readStripeEvent } from './stripe-events';

export const STRIPE_EVENTS_DURABLE = 'numbers-billing-stripe-events';

/**
 * Stripe's asynchronous payment results (docs/adr/0084), from the PROVIDER stream the gateway publishes verified
 * webhooks to (ADR 0083): each settles the auto-top-up attempt it names, once; and completed card setups (ADR 0131),
 * which make the card the customer's default. Runs only where Stripe is configured.
 */
@Injectable()
export class StripeEventsConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly consumer: EventConsumer<ProviderEventReceivedData> | undefined;

  constructor(
    autoTopUp: AutoTopUpService,
    cardSetup: CardSetupService,
    @Inject(NUMBERS_BILLING_CONFIG) config: NumbersBillingConfig,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(MESSAGING_CONFIG) messaging: MessagingConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    if (!config.stripe) return;
    this.consumer = new EventConsumer(
      nc,
      messaging,
      {
        event: StripeEventReceivedEvent,
        durable: STRIPE_EVENTS_DURABLE,
        concurrency: 4,
        handler: async (envelope) => {
          const outcome = readStripeEvent(envelope.data.payload);
          if ('ignored' in outcome) {
            logger.info({ stripe_event: envelope.data.event_id, reason: outcome.ignored }, 'Stripe event ignored');
            return;
          }
          if ('cardSetup' in outcome) {
            const result = await cardSetup.complete(outcome.cardSetup);
            logger.info(
              { stripe_event: envelope.data.event_id, session: outcome.cardSetup.sessionId, result },
              'Stripe card setup',
            );
            return;
          }
          const cause = { correlationId: envelope.correlation_id, causationId: envelope.id };
          const result = await autoTopUp.settleFromProcessor(outcome.attemptId, outcome, cause);
          logger.info(
            { stripe_event: envelope.data.event_id, attempt_id: outcome.attemptId, result },
            'Stripe event settled an auto-top-up attempt',
          );
        },
      },
      logger,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.consumer?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }
}
