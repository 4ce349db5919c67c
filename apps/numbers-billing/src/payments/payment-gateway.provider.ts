import type { Provider } from '@nestjs/common';
import { isTestAccount } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import type Stripe from 'stripe';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import { PAYMENT_GATEWAY, type PaymentGateway } from './payment-gateway.port';
import { SimulatedPaymentAdapter } from './simulated-payment.adapter';
import { StripeCustomersRepository } from './stripe-customers.repository';
import { StripePaymentAdapter, createStripeClient } from './stripe-payment.adapter';

/** The Stripe SDK client when Stripe is configured (`STRIPE_SECRET_KEY`), else null. */
export const STRIPE_CLIENT = Symbol('STRIPE_CLIENT');

/**
 * Live accounts' charges go to the real processor, test twins' to the simulated one (docs/adr/0087-test-mode.md):
 * the customer reference is the account id, which tells the mode.
 */
export class PaymentGatewayByMode implements PaymentGateway {
  constructor(
    private readonly live: PaymentGateway,
    private readonly test: PaymentGateway,
  ) {}

  charge(request: Parameters<PaymentGateway['charge']>[0]): Promise<{ paymentId: string }> {
    return (isTestAccount(request.customerRef) ? this.test : this.live).charge(request);
  }
}

/** One Stripe client for the service, made at start only when Stripe is configured. */
export const stripeClientProvider: Provider = {
  provide: STRIPE_CLIENT,
  inject: [NUMBERS_BILLING_CONFIG],
  useFactory: async (config: NumbersBillingConfig): Promise<Stripe | null> =>
    config.stripe ? createStripeClient(config.stripe) : null,
};

/** The one place that chooses the payment adapter, from the config read at start. */
export const paymentGatewayProvider: Provider = {
  provide: PAYMENT_GATEWAY,
  inject: [NUMBERS_BILLING_CONFIG, STRIPE_CLIENT, SimulatedPaymentAdapter, StripeCustomersRepository, LOGGER],
  useFactory: (
    config: NumbersBillingConfig,
    stripe: Stripe | null,
    simulated: SimulatedPaymentAdapter,
    customers: StripeCustomersRepository,
    logger: Logger,
  ): PaymentGateway => {
    if (!stripe) return simulated;
    logger.info(
      { stand_in: config.stripe?.apiBaseUrl?.href },
      "auto-top-ups of live accounts are charged through Stripe; test accounts' through the simulated processor",
    );
    const storedCustomerOf = async (accountId: string) => (await customers.ofAccount(accountId))?.customer_id ?? null;
    return new PaymentGatewayByMode(new StripePaymentAdapter(stripe, Date.now, storedCustomerOf), simulated);
  },
};
