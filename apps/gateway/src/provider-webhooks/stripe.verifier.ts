import {
  ProviderWebhookRefused,
  requiredString,
  singleHeader,
  type ProviderWebhookRequest,
  type ProviderWebhookVerifier,
  type VerifiedProviderEvent,
} from './provider-webhook';

/** Stripe's own default, and the issue's: a signed event older than five minutes is a replay. */
export const STRIPE_TOLERANCE_SECONDS = 300;

interface StripeWebhooks {
  constructEvent(payload: Buffer, header: string, secret: string, toleranceSeconds?: number): unknown;
}

/**
 * Stripe's `Stripe-Signature` (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`), checked by the SDK's
 * `webhooks.constructEvent` against the endpoint's `whsec_` secret, with its timestamp tolerance. The SDK is loaded
 * at the first Stripe webhook, so a gateway without Stripe never loads it.
 */
export class StripeWebhookVerifier implements ProviderWebhookVerifier {
  readonly provider = 'stripe' as const;
  private webhooks: Promise<StripeWebhooks> | undefined;

  constructor(private readonly webhookSecret: string) {}

  async verify(request: ProviderWebhookRequest): Promise<VerifiedProviderEvent> {
    if (request.callback !== '')
      throw new ProviderWebhookRefused('not_found', 'Stripe events are received at /provider-webhooks/stripe.');
    const signature = singleHeader(request.headers, 'stripe-signature');
    if (!signature) throw new ProviderWebhookRefused('unauthorized', 'The Stripe-Signature header is missing.');
    const webhooks = await (this.webhooks ??= loadStripeWebhooks());
    let event: unknown;
    try {
      event = webhooks.constructEvent(request.body, signature, this.webhookSecret, STRIPE_TOLERANCE_SECONDS);
    } catch (error) {
      // StripeSignatureVerificationError: a wrong secret, a changed body, or a timestamp outside the tolerance.
      throw new ProviderWebhookRefused(
        'unauthorized',
        `The Stripe signature does not verify: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    if (event === null || typeof event !== 'object' || Array.isArray(event))
      throw new ProviderWebhookRefused('invalid_request', 'The Stripe event is not a JSON object.');
    const payload = event as Record<string, unknown>;
    return {
      eventId: requiredString(payload, 'id', 'Stripe'),
      kind: requiredString(payload, 'type', 'Stripe'),
      payload,
    };
  }
}

async function loadStripeWebhooks(): Promise<StripeWebhooks> {
  const stripe = await import('stripe');
  return (stripe.default as unknown as { webhooks: StripeWebhooks }).webhooks;
}
