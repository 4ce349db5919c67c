import type Stripe from 'stripe';
import { PaymentDeclined, PaymentPending, PaymentUnavailable, type PaymentGateway } from './payment-gateway.port';
import type { StripeConfig } from '../config/stripe.config';

/** How long one request to Stripe may take; a slower answer is an unknown outcome, asked again with the same key. */
export const STRIPE_TIMEOUT_MS = 10_000;
/**
 * The SDK retries a connection error, a 409 or a 5xx once itself, with the same idempotency key, so never a second
 * charge, unless Stripe says `Stripe-Should-Retry: false`, as it does on most 500s (a retry with the key would only
 * get the same 500 again: Stripe saves a 500 with the key and replays it). Beyond that, and on a 429, the outcome is
 * unknown: the attempt stays pending and auto-top-up asks again after its lease, with the same key.
 */
export const STRIPE_NETWORK_RETRIES = 1;
/**
 * How long a customer just tagged may stay out of Stripe's search: "searchable in less than a minute" normally, "up
 * to an hour behind during outages" (https://docs.stripe.com/api/customers/search). Within it, an account whose
 * customer search does not find is asked again later (its attempt stays pending); after it, that is a decline.
 */
export const STRIPE_SEARCH_LAG_MS = 60 * 60_000;
/** Slack on `created[gte]` when listing an attempt's PaymentIntents (our clock against Stripe's). */
const CLOCK_SLACK_S = 300;
/** The metadata key that names the account on its Stripe customer, and the top-up attempt on a PaymentIntent. */
export const ACCOUNT_METADATA_KEY = 'switchboard_account_id';
export const ATTEMPT_METADATA_KEY = 'switchboard_top_up_attempt';

/** The account's Stripe customer id as stored by the console's card setup (docs/adr/0131), or null. */
export type StoredCustomerLookup = (accountId: string) => Promise<string | null>;

/**
 * Auto-top-up through Stripe (docs/adr/0131 and 0083): the account's customer (the id stored when an owner connected
 * a card from the console, retrieved by id; else found by `metadata.switchboard_account_id`), its card entered on
 * Stripe's own pages, is charged off-session with a PaymentIntent confirmed at once, on its
 * default payment method, with our attempt id as the Idempotency-Key: a retry, ours or the SDK's, answers the first
 * PaymentIntent and never charges twice. Card data never reaches us.
 *
 * Stripe saves a 500 with the key and replays it to every retry, so a later try of an attempt whose charge got a 500
 * learns nothing from the key: it reads the customer's PaymentIntents instead (the list is consistent at once, unlike
 * search) and settles the attempt on the one made for it, or ends it as declined when none was made.
 */
export class StripePaymentAdapter implements PaymentGateway {
  constructor(
    private readonly stripe: Stripe,
    private readonly now: () => number = Date.now,
    private readonly storedCustomerOf: StoredCustomerLookup = () => Promise.resolve(null),
  ) {}

  async charge(request: {
    customerRef: string;
    amountCents: number;
    idempotencyKey: string;
    description: string;
    attemptedAt: Date;
  }): Promise<{ paymentId: string }> {
    const customer = await this.customerOf(request.customerRef, request.attemptedAt);
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
      if (replayedServerError(error)) return this.reconcile(customer.id, request);
      throw paymentError(error);
    }
    return settled(intent);
  }

  /**
   * The attempt's first charge got a 500, and Stripe answers the key with that 500 again: what happened is in the
   * customer's PaymentIntents. The one made for this attempt (its metadata names it) says how it ended; none means
   * Stripe charged nothing, and since the key can only ever answer that 500 (for 24 hours), the attempt ends declined
   * and the account's next drop starts a new one.
   */
  private async reconcile(
    customerId: string,
    request: { idempotencyKey: string; attemptedAt: Date },
  ): Promise<{ paymentId: string }> {
    let made: Stripe.PaymentIntent | undefined;
    try {
      const since = Math.floor(request.attemptedAt.getTime() / 1000) - CLOCK_SLACK_S;
      for await (const intent of this.stripe.paymentIntents.list({
        customer: customerId,
        created: { gte: since },
        limit: 100,
      })) {
        if (intent.metadata?.[ATTEMPT_METADATA_KEY] === request.idempotencyKey) {
          made = intent;
          break;
        }
      }
    } catch (error) {
      throw paymentError(error);
    }
    if (!made) throw new PaymentDeclined('Stripe failed the charge (HTTP 500) and made no PaymentIntent for it');
    return settled(made);
  }

  private async customerOf(accountId: string, attemptedAt: Date): Promise<Stripe.Customer> {
    const stored = await this.storedCustomerOf(accountId);
    if (stored) {
      // Made by the console's card setup: retrieve is read-after-write, unlike search.
      let customer: Stripe.Customer | Stripe.DeletedCustomer;
      try {
        customer = await this.stripe.customers.retrieve(stored);
      } catch (error) {
        throw paymentError(error);
      }
      if ('deleted' in customer && customer.deleted) throw new PaymentDeclined('the Stripe customer was deleted');
      return customer;
    }
    let found: Stripe.ApiSearchResult<Stripe.Customer>;
    try {
      found = await this.stripe.customers.search({
        query: `metadata['${ACCOUNT_METADATA_KEY}']:'${accountId}'`,
        limit: 2,
      });
    } catch (error) {
      throw paymentError(error);
    }
    if (found.data.length === 0) {
      // Search is not read-after-write: a customer tagged a moment ago is not found yet. Asked again later, with the
      // same key; declined only once Stripe has had far longer than its search needs.
      if (this.now() - attemptedAt.getTime() < STRIPE_SEARCH_LAG_MS)
        throw new PaymentUnavailable("Stripe's customer search does not find the account's customer yet");
      throw new PaymentDeclined('the account has no Stripe customer');
    }
    if (found.data.length > 1) throw new PaymentDeclined('the account has more than one Stripe customer');
    return found.data[0];
  }
}

/** A PaymentIntent's status, in the port's terms. */
function settled(intent: Stripe.PaymentIntent): { paymentId: string } {
  if (intent.status === 'succeeded') return { paymentId: intent.id };
  if (intent.status === 'processing') throw new PaymentPending(intent.id);
  // requires_action / requires_payment_method / canceled: the customer is not here to authenticate an off-session
  // charge, or the card was refused.
  const reason = intent.last_payment_error?.message;
  throw new PaymentDeclined(
    reason
      ? `declined by Stripe: ${reason}`
      : `the payment needs the customer (PaymentIntent ${intent.id} is ${intent.status})`,
  );
}

/** Stripe answering the key with the 500 it saved for it: the first request's outcome is not in the answer. */
function replayedServerError(error: unknown): boolean {
  const { statusCode, headers } = error as { statusCode?: number; headers?: Record<string, string | undefined> };
  return statusCode !== undefined && statusCode >= 500 && headers?.['idempotent-replayed'] === 'true';
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

/**
 * Why Stripe refused a request for good, or undefined when asking again may go differently. A 4xx is Stripe's answer
 * to the request itself (an id it does not know, a parameter it will not take, a card refused): the same request gets
 * it again. Not permanent: a 429 or Stripe's rate-limit 400 (asked too fast), a 409 (a lock or idempotency conflict,
 * which Stripe asks to retry), and a 401 or 403, which say our key is wrong or lacks a permission: once the operator
 * fixes the key, the same request succeeds. Without a status (no answer, a timeout) or on a 5xx the outcome is unknown.
 */
export function stripeRefusal(error: unknown): string | undefined {
  const { statusCode, type, code, message } = error as {
    statusCode?: unknown;
    type?: unknown;
    code?: unknown;
    message?: unknown;
  };
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode > 499) return undefined;
  if ([401, 403, 409, 429].includes(statusCode) || type === 'StripeRateLimitError') return undefined;
  return `Stripe answered ${statusCode}${typeof code === 'string' ? ` ${code}` : ''}: ${String(message)}`;
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
