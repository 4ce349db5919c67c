import type Stripe from 'stripe';
import { PaymentDeclined, PaymentPending, PaymentUnavailable, type PaymentGateway } from './payment-gateway.port';
import type { StripeConfig } from '../config/stripe.config';

/** How long one request to Stripe may take; a slower answer is an unknown outcome, asked again with the same key. */
export const STRIPE_TIMEOUT_MS = 10_000;
/**
 * The SDK retries a connection error, a 409 or a 5xx once itself (and whatever Stripe marks `Stripe-Should-Retry`),
 * with the same idempotency key, so never a second charge; beyond that, and on a 429, the outcome is unknown: the
 * attempt stays pending and auto-top-up asks again after its lease, with the same key.
 */
export const STRIPE_NETWORK_RETRIES = 1;
/** The metadata key that names the account on its Stripe customer, and the top-up attempt on a PaymentIntent. */
export const ACCOUNT_METADATA_KEY = 'switchboard_account_id';
export const ATTEMPT_METADATA_KEY = 'switchboard_top_up_attempt';

/**
 * Auto-top-up through Stripe (docs/adr/0084): the account's customer (found by `metadata.switchboard_account_id`,
 * its card entered on Stripe's own pages) is charged off-session with a PaymentIntent confirmed at once, on its
 * default payment method, with our attempt id as the Idempotency-Key: a retry, ours or the SDK's, answers the first
 * PaymentIntent and never charges twice. Card data never reaches us.
 */
export class StripePaymentAdapter implements PaymentGateway {
  constructor(private readonly stripe: Stripe) {}

  async charge(request: {
    customerRef: string;
    amountCents: number;
    idempotencyKey: string;
    description: string;
  }): Promise<{ paymentId: string }> {
    const customer = await this.customerOf(request.customerRef);
    const paymentMethod = customer.invoice_settings?.default_payment_method;
    if (!paymentMethod) throw new PaymentDeclined('the Stripe customer has no default payment method');
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'usd',
          customer: customer.id,
          payment_method: typeof paymentMethod === 'string' ? paymentMethod : paymentMethod.id,
          off_session: true,
          confirm: true,
          description: request.description,
          metadata: { [ACCOUNT_METADATA_KEY]: request.customerRef, [ATTEMPT_METADATA_KEY]: request.idempotencyKey },
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      throw paymentError(error);
    }
    if (intent.status === 'succeeded') return { paymentId: intent.id };
    if (intent.status === 'processing') throw new PaymentPending(intent.id);
    // requires_action / requires_payment_method: the customer is not here to authenticate an off-session charge.
    throw new PaymentDeclined(`the payment needs the customer (PaymentIntent ${intent.id} is ${intent.status})`);
  }

  private async customerOf(accountId: string): Promise<Stripe.Customer> {
    let found: Stripe.ApiSearchResult<Stripe.Customer>;
    try {
      found = await this.stripe.customers.search({
        query: `metadata['${ACCOUNT_METADATA_KEY}']:'${accountId}'`,
        limit: 2,
      });
    } catch (error) {
      throw paymentError(error);
    }
    if (found.data.length === 0) throw new PaymentDeclined('the account has no Stripe customer');
    if (found.data.length > 1) throw new PaymentDeclined('the account has more than one Stripe customer');
    return found.data[0];
  }
}

/** Stripe's error, in the port's terms: a card or request refusal is a decline; the rest an unknown outcome. */
export function paymentError(error: unknown): Error {
  const type = (error as { type?: string }).type;
  const message = (error as Error).message ?? String(error);
  if (type === 'StripeCardError') return new PaymentDeclined(`declined by Stripe: ${message}`);
  // A request Stripe refuses as invalid will be refused again: retrying cannot charge, so it ends the attempt.
  if (type === 'StripeInvalidRequestError') return new PaymentDeclined(`refused by Stripe: ${message}`);
  return new PaymentUnavailable(`Stripe did not answer with a result: ${message}`);
}

/** The SDK client, loaded only when Stripe is configured. */
export async function createStripeClient(config: StripeConfig, options: { timeoutMs?: number } = {}): Promise<Stripe> {
  const { default: StripeClient } = await import('stripe');
  const base = config.apiBaseUrl;
  // The dynamic import types the ESM build; the instance is the same client the CommonJS types describe.
  const client: unknown = new StripeClient(config.secretKey, {
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    timeout: options.timeoutMs ?? STRIPE_TIMEOUT_MS,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  return client as Stripe;
}
