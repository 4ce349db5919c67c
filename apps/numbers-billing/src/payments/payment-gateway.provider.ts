import type { Provider } from '@nestjs/common';
import { isTestAccount } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import { PAYMENT_GATEWAY, type PaymentGateway } from './payment-gateway.port';
import { SimulatedPaymentAdapter } from './simulated-payment.adapter';
import { StripePaymentAdapter, createStripeClient } from './stripe-payment.adapter';

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

/** The one place that chooses the payment adapter, from the config read at start. */
export const paymentGatewayProvider: Provider = {
  provide: PAYMENT_GATEWAY,
  inject: [NUMBERS_BILLING_CONFIG, SimulatedPaymentAdapter, LOGGER],
  useFactory: async (
    config: NumbersBillingConfig,
    simulated: SimulatedPaymentAdapter,
    logger: Logger,
  ): Promise<PaymentGateway> => {
    if (!config.stripe) return simulated;
    logger.info(
      { stand_in: config.stripe.apiBaseUrl?.href },
      "auto-top-ups of live accounts are charged through Stripe; test accounts' through the simulated processor",
    );
    return new PaymentGatewayByMode(new StripePaymentAdapter(await createStripeClient(config.stripe)), simulated);
  },
};
