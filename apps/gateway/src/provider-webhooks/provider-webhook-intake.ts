import { Inject, Injectable } from '@nestjs/common';
import { PROVIDERS, type ProviderEventReceivedData, type ProviderName } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../config/tokens';
import { ProviderEventRelay } from './provider-event-relay';
import { ProviderEventsRepository } from './provider-events.repository';
import {
  ProviderWebhookRefused,
  refuseUnstorable,
  type ProviderWebhookRequest,
  type ProviderWebhookVerifier,
} from './provider-webhook';
import { RetellWebhookVerifier } from './retell.verifier';
import { StripeWebhookVerifier } from './stripe.verifier';
import { TwilioWebhookVerifier } from './twilio.verifier';

/** What the provider is told: the event is ours now (a duplicate too: it must not send it again). */
export interface ProviderWebhookAccepted {
  received: true;
  duplicate: boolean;
}

const PROVIDER_LABELS: Record<ProviderName, string> = { stripe: 'Stripe', twilio: 'Twilio', retell: 'Retell' };

/**
 * The one way in for provider webhooks: the provider's verifier first (signature over the raw request, replay
 * window), then what no column can hold refused (`refuseUnstorable`), then the event recorded once with its outbox row, then the relay kicked. Nothing else happens while the
 * provider waits; the service that owns the data does the work from the PROVIDER stream.
 */
@Injectable()
export class ProviderWebhookIntake {
  private readonly verifiers = new Map<ProviderName, ProviderWebhookVerifier>();

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly events: ProviderEventsRepository,
    private readonly relay: ProviderEventRelay,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const { stripeWebhookSecret, twilioAuthToken, twilioAccountSid, retellApiKey, publicBaseUrl } =
      config.providerWebhooks;
    if (stripeWebhookSecret) this.verifiers.set('stripe', new StripeWebhookVerifier(stripeWebhookSecret));
    if (twilioAuthToken && twilioAccountSid && publicBaseUrl)
      this.verifiers.set('twilio', new TwilioWebhookVerifier(twilioAuthToken, twilioAccountSid, publicBaseUrl));
    if (retellApiKey) this.verifiers.set('retell', new RetellWebhookVerifier(retellApiKey));
  }

  /** The providers whose webhooks are taken in (their secrets are set). */
  get configured(): ProviderName[] {
    return [...this.verifiers.keys()];
  }

  /** The verifier of a configured provider; a provider we do not know or have no secret for is not found. */
  verifierOf(provider: string): ProviderWebhookVerifier {
    const verifier = (PROVIDERS as readonly string[]).includes(provider)
      ? this.verifiers.get(provider as ProviderName)
      : undefined;
    if (!verifier) throw new ProviderWebhookRefused('not_found', `No webhooks are taken in for "${provider}".`);
    return verifier;
  }

  async receive(
    provider: string,
    request: ProviderWebhookRequest,
    cause: { requestId: string },
  ): Promise<ProviderWebhookAccepted> {
    const verifier = this.verifierOf(provider);
    const event = await verifier.verify(request);
    refuseUnstorable(PROVIDER_LABELS[verifier.provider], request.body, event.payload);
    const data: ProviderEventReceivedData = {
      provider: verifier.provider,
      event_id: event.eventId,
      kind: event.kind,
      payload: event.payload,
      received_at: new Date().toISOString(),
    };
    const accepted = await this.events.accept(data, cause);
    if (accepted) this.relay.kick();
    this.logger.info(
      {
        provider: data.provider,
        event_id: data.event_id,
        kind: data.kind,
        duplicate: !accepted,
        request_id: cause.requestId,
      },
      accepted ? 'provider event accepted' : 'provider event already accepted',
    );
    return { received: true, duplicate: !accepted };
  }
}
