import { Injectable } from '@nestjs/common';
import { NumbersBillingPrisma } from '../prisma/numbers-billing-prisma';

export interface StripeCustomerRecord {
  account_id: string;
  customer_id: string;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
}

/**
 * Each account's Stripe customer id, stored when the console's card setup made the customer (docs/adr/0131), so
 * auto-top-up retrieves the customer by id instead of searching (search lags, ADR 0083); and the card Checkout set.
 */
@Injectable()
export class StripeCustomersRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  ofAccount(accountId: string): Promise<StripeCustomerRecord | null> {
    return this.prisma.stripeCustomer.findUnique({ where: { account_id: accountId } });
  }

  ofCustomer(customerId: string): Promise<StripeCustomerRecord | null> {
    return this.prisma.stripeCustomer.findUnique({ where: { customer_id: customerId } });
  }

  /** Stores the account's customer unless one is already stored; answers the stored one (the first wins). */
  async keep(accountId: string, customerId: string): Promise<StripeCustomerRecord> {
    await this.prisma.stripeCustomer.createMany({
      data: [{ account_id: accountId, customer_id: customerId }],
      skipDuplicates: true,
    });
    return this.prisma.stripeCustomer.findUniqueOrThrow({ where: { account_id: accountId } });
  }

  setCard(customerId: string, card: { paymentMethodId: string; brand: string; last4: string }): Promise<unknown> {
    return this.prisma.stripeCustomer.update({
      where: { customer_id: customerId },
      data: { payment_method_id: card.paymentMethodId, card_brand: card.brand, card_last4: card.last4 },
    });
  }
}
