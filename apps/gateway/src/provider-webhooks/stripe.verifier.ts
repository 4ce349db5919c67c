import {
  ProviderWebhookRefused,
  requiredString,
  singleHeader,
  type ProviderWebhookRequest,
  type ProviderWebhookVerifier,
  type VerifiedProviderEvent,
} from './provider-webhook';

/**
 * Stripe's own default, and the issue's: a signed event older than five minutes is a replay, and one dated more than
 * five minutes ahead is refused too (the SDK checks only the age, so a timestamp in the future would pass it).
 */
export const STRIPE_TOLERANCE_SECONDS = 300;

interface StripeWebhooks {
  constructEvent(payload: Buffer, header: string, secret: string, toleranceSeconds?: number): unknown;
}

/**
 * Stripe's `Stripe-Signature` (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`), checked by the SDK's
 * `webhooks.constructEvent` against the endpoint's `whsec_` secret, with its timestamp tolerance either way. The SDK is
 * loaded at the first Stripe webhook, so a gateway without Stripe never loads it.
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
      // The SDK parses the body only once the signature holds: signed, but not JSON.
      if (error instanceof SyntaxError)
        throw new ProviderWebhookRefused('invalid_request', 'The Stripe event is not JSON.');
      // StripeSignatureVerificationError: a wrong secret, a changed body, or a timestamp older than the tolerance.
      throw new ProviderWebhookRefused(
        'unauthorized',
        `The Stripe signature does not verify: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    const ahead = signedAt(signature) - Math.floor(Date.now() / 1000);
    if (ahead > STRIPE_TOLERANCE_SECONDS)
      throw new ProviderWebhookRefused(
        'unauthorized',
        'The Stripe signature does not verify: Timestamp outside the tolerance zone',
        `the event is signed ${ahead} s ahead of our clock`,
      );
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

/** The `t=` of a `Stripe-Signature` the SDK verified, read as the SDK reads it (the last `t` wins). */
function signedAt(header: string): number {
  let t = Number.NaN;
  for (const item of header.split(',')) {
    const [name, value] = item.split('=');
    if (name === 't') t = Number.parseInt(value, 10);
  }
  // The SDK verified a signature over "<t>.<body>", so `t` is there; a header it accepts without one is refused.
  return Number.isFinite(t) ? t : Number.MAX_SAFE_INTEGER;
}

async function loadStripeWebhooks(): Promise<StripeWebhooks> {
  const stripe = await import('stripe');
  return (stripe.default as unknown as { webhooks: StripeWebhooks }).webhooks;
}
