import { Inject, Injectable } from '@nestjs/common';
import { isTestAccount, ServiceError, type CardSetupSession, type PaymentMethodView } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import type Stripe from 'stripe';
import { STRIPE_CLIENT } from './payment-gateway.provider';
import { PaymentUnavailable } from './payment-gateway.port';
import { StripeCustomersRepository } from './stripe-customers.repository';
import { ACCOUNT_METADATA_KEY, paymentError, stripeRefusal } from './stripe-payment.adapter';

/** What a `checkout.session.completed` of ours says (read by `readStripeEvent`). */
export interface CompletedCardSetup {
  sessionId: string;
  customerId: string;
  setupIntentId: string;
}

export type CardSetupResult = 'card_set' | 'not_our_customer' | 'not_succeeded' | 'refused';

/** How a completed card setup was settled; `reason` says why it was refused. */
export interface CardSetupOutcome {
  result: CardSetupResult;
  reason?: string;
}

/**
 * Owners connect the account's card themselves (docs/adr/0131): the account's Stripe customer is made once (tagged
 * with the account id, its id stored), and a Checkout Session in setup mode sends the owner to Stripe's own page;
 * Stripe's `checkout.session.completed` then makes the SetupIntent's card the customer's default payment method,
 * which auto-top-up charges. Card numbers never reach us: only ids, the brand and the last four digits.
 *
 * Without Stripe (no `STRIPE_SECRET_KEY`) there is no card to connect: the simulated processor charges every account,
 * and a setup is refused with a 400 that says so. Test twins (ADR 0087) never reach Stripe either.
 */
@Injectable()
export class CardSetupService {
  constructor(
    @Inject(STRIPE_CLIENT) private readonly stripe: Stripe | null,
    private readonly customers: StripeCustomersRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async paymentMethod(accountId: string): Promise<PaymentMethodView> {
    if (!this.stripe || isTestAccount(accountId)) return { processor: 'simulated', card: null };
    const stored = await this.customers.ofAccount(accountId);
    return {
      processor: 'stripe',
      card: stored?.card_brand && stored.card_last4 ? { brand: stored.card_brand, last4: stored.card_last4 } : null,
    };
  }

  async start(accountId: string, urls: { successUrl: string; cancelUrl: string }): Promise<CardSetupSession> {
    if (!this.stripe || isTestAccount(accountId))
      throw new ServiceError(
        'invalid_request',
        isTestAccount(accountId)
          ? 'Test mode has no card to connect: its top-ups use the simulated processor.'
          : 'Cards are connected through Stripe, which this system is not configured with: the simulated processor tops up every account without a card.',
      );
    const stripe = this.stripe;
    const customerId = await this.customerOf(stripe, accountId);
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create({
        mode: 'setup',
        customer: customerId,
        currency: 'usd',
        allowed_payment_method_types: ['card'],
        client_reference_id: accountId,
        metadata: { [ACCOUNT_METADATA_KEY]: accountId },
        setup_intent_data: { metadata: { [ACCOUNT_METADATA_KEY]: accountId } },
        success_url: urls.successUrl,
        cancel_url: urls.cancelUrl,
      });
    } catch (error) {
      throw unavailable(error);
    }
    if (!session.url) throw new ServiceError('provider_unavailable', 'Stripe made a Checkout Session without a URL.');
    this.logger.info({ account_id: accountId, customer: customerId, session: session.id }, 'card setup started');
    return { url: session.url };
  }

  /**
   * Stripe says the owner finished Checkout: the SetupIntent's payment method becomes the customer's default for
   * auto-top-up, and its brand and last four are kept to show. Repeating it (Stripe resends) sets the same again.
   *
   * Only a SetupIntent of the event's own customer (and account, when its metadata names one) is used: one of another
   * customer is refused before anything is attached. A request Stripe refuses for good (an unknown SetupIntent, a
   * payment method it will not make the default) settles the event as `refused`, with Stripe's reason: the same event
   * would get the same answer every time. Anything else (no answer, a 5xx, a 429, our key refused) throws, and the
   * event comes back.
   */
  async complete(setup: CompletedCardSetup): Promise<CardSetupOutcome> {
    const stripe = this.stripe;
    if (!stripe) return { result: 'not_our_customer' };
    const stored = await this.customers.ofCustomer(setup.customerId);
    if (!stored) return { result: 'not_our_customer' };
    let card: { paymentMethodId: string; brand: string; last4: string };
    try {
      const intent = await stripe.setupIntents.retrieve(setup.setupIntentId, { expand: ['payment_method'] });
      const notOurs = notTheEventsIntent(intent, setup.customerId, stored.account_id);
      if (notOurs) return { result: 'refused', reason: notOurs };
      if (intent.status !== 'succeeded' || !intent.payment_method) return { result: 'not_succeeded' };
      const method = intent.payment_method;
      const methodId = typeof method === 'string' ? method : method.id;
      await stripe.customers.update(setup.customerId, { invoice_settings: { default_payment_method: methodId } });
      const details = typeof method === 'string' ? undefined : method.card;
      card = { paymentMethodId: methodId, brand: details?.brand ?? 'card', last4: details?.last4 ?? '' };
    } catch (error) {
      const refusal = stripeRefusal(error);
      if (refusal) return { result: 'refused', reason: refusal };
      // Unknown outcome: the event is not acknowledged and comes back (the consumer redelivers it).
      throw paymentError(error);
    }
    await this.customers.setCard(setup.customerId, card);
    this.logger.info(
      { account_id: stored.account_id, customer: setup.customerId, session: setup.sessionId },
      "card setup completed: the customer's default payment method is set",
    );
    return { result: 'card_set' };
  }

  /**
   * The account's customer: the stored one, or one made now, tagged with the account. Made with an idempotency key
   * of the account, so two owners clicking at once get one customer; the first stored wins.
   */
  private async customerOf(stripe: Stripe, accountId: string): Promise<string> {
    const stored = await this.customers.ofAccount(accountId);
    if (stored) return stored.customer_id;
    let customer: Stripe.Customer;
    try {
      customer = await stripe.customers.create(
        { metadata: { [ACCOUNT_METADATA_KEY]: accountId }, description: `Switchboard account ${accountId}` },
        { idempotencyKey: `switchboard-customer-${accountId}` },
      );
    } catch (error) {
      throw unavailable(error);
    }
    return (await this.customers.keep(accountId, customer.id)).customer_id;
  }
}

/** Stripe did not do what was asked: a 503 for the console (the owner may try again). */
function unavailable(error: unknown): ServiceError {
  const reason = paymentError(error);
  return new ServiceError(
    'provider_unavailable',
    `Stripe could not start the card setup; try again in a moment. (${reason instanceof PaymentUnavailable ? 'no answer' : reason.message})`,
  );
}

/**
 * Why a SetupIntent is not the event's to use, or undefined when it is: it must be the event's customer's, made for
 * the customer's account when its metadata names one (ours always does), with a payment method of that customer.
 */
function notTheEventsIntent(intent: Stripe.SetupIntent, customerId: string, accountId: string): string | undefined {
  const owner = idOf(intent.customer);
  if (owner !== customerId)
    return `SetupIntent ${intent.id} belongs to ${owner ? `customer ${owner}` : 'no customer'}, not to the event's ${customerId}`;
  const account = intent.metadata?.[ACCOUNT_METADATA_KEY];
  if (account !== undefined && account !== accountId)
    return `SetupIntent ${intent.id} was made for account ${account}, not for ${accountId}`;
  const method = intent.payment_method;
  const methodOwner = method && typeof method !== 'string' ? idOf(method.customer) : customerId;
  if (methodOwner !== customerId)
    return `the payment method of SetupIntent ${intent.id} belongs to ${methodOwner ? `customer ${methodOwner}` : 'no customer'}`;
  return undefined;
}

function idOf(value: string | { id: string } | null | undefined): string | undefined {
  return typeof value === 'string' ? value : (value?.id ?? undefined);
}
