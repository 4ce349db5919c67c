import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { StripeEventReceivedEvent, type EventEnvelope, type ProviderEventReceivedData } from '@switchboard/contracts';
import { DurableEventPattern } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { AutoTopUpService } from './auto-top-up.service';
import { CardSetupService } from '../payments/card-setup.service';
import { readStripeEvent } from './stripe-events';

export const STRIPE_EVENTS_DURABLE = 'numbers-billing-stripe-events';

/**
 * Stripe's asynchronous payment results (docs/adr/0131), from the PROVIDER stream the gateway publishes verified
 * webhooks to (ADR 0083): each settles the auto-top-up attempt it names, once; and completed card setups (ADR 0131),
 * which make the card the customer's default. Runs only where Stripe is configured (the module adds it then).
 */
@Controller()
export class StripeEventsConsumer {
  constructor(
    private readonly autoTopUp: AutoTopUpService,
    private readonly cardSetup: CardSetupService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @DurableEventPattern(StripeEventReceivedEvent, { durable: STRIPE_EVENTS_DURABLE, concurrency: 4 })
  async settle(@Payload() envelope: EventEnvelope<ProviderEventReceivedData>): Promise<void> {
    const outcome = readStripeEvent(envelope.data.payload);
    if ('ignored' in outcome) {
      this.logger.info({ stripe_event: envelope.data.event_id, reason: outcome.ignored }, 'Stripe event ignored');
      return;
    }
    if ('cardSetup' in outcome) {
      const { result, reason } = await this.cardSetup.complete(outcome.cardSetup);
      const fields = { stripe_event: envelope.data.event_id, session: outcome.cardSetup.sessionId, result };
      // Refused for good: acknowledged, and said once, here (the same event would be refused every time).
      if (result === 'refused') this.logger.warn({ ...fields, reason }, 'Stripe card setup refused; event settled');
      else this.logger.info(fields, 'Stripe card setup');
      return;
    }
    const cause = { correlationId: envelope.correlation_id, causationId: envelope.id };
    const result = await this.autoTopUp.settleFromProcessor(outcome.attemptId, outcome, cause);
    this.logger.info(
      { stripe_event: envelope.data.event_id, attempt_id: outcome.attemptId, result },
      'Stripe event settled an auto-top-up attempt',
    );
  }
}
