/**
 * Card payments for auto-top-up. Card data never reaches Switchboard: the card is kept by the processor (entered
 * on the processor's own form), and we charge the customer's payment method there by reference. A charge carries
 * an idempotency key; the processor answers a repeated key with the first result and never charges it twice.
 */
export interface PaymentGateway {
  /**
   * Resolves with the processor's payment id, or throws `PaymentDeclined`, `PaymentUnavailable` (outcome unknown) or
   * `PaymentPending` (taken, not finished: the processor tells later).
   */
  charge(request: {
    customerRef: string;
    amountCents: number;
    idempotencyKey: string;
    description: string;
    /** When the attempt began (its first try): how long the processor has had to catch up with itself. */
    attemptedAt: Date;
  }): Promise<{ paymentId: string }>;
}

export const PAYMENT_GATEWAY = Symbol('PAYMENT_GATEWAY');

export class PaymentDeclined extends Error {
  constructor(message = 'the payment was declined') {
    super(message);
    this.name = 'PaymentDeclined';
  }
}

export class PaymentUnavailable extends Error {
  constructor(message = 'the payment processor is unavailable') {
    super(message);
    this.name = 'PaymentUnavailable';
  }
}

/**
 * The processor took the payment but has not finished it (a PaymentIntent `processing`): not a success and not a
 * decline. The attempt stays pending; the processor's webhook settles it (docs/adr/0131).
 */
export class PaymentPending extends Error {
  constructor(
    readonly paymentId: string,
    message = 'the payment is still being processed',
  ) {
    super(message);
    this.name = 'PaymentPending';
  }
}
