import { readStripeEvent } from './stripe-events';

const attempt = '7d2f1c9e-0000-4000-8000-000000000001';
const intent = (extra: Record<string, unknown> = {}) => ({
  id: 'pi_1',
  object: 'payment_intent',
  metadata: { switchboard_top_up_attempt: attempt },
  ...extra,
});

describe('readStripeEvent', () => {
  it('reads a succeeded PaymentIntent of an attempt as paid', () => {
    expect(readStripeEvent({ type: 'payment_intent.succeeded', data: { object: intent() } })).toEqual({
      attemptId: attempt,
      paymentId: 'pi_1',
    });
  });

  it("reads a failed one as declined, with Stripe's reason when it gives one", () => {
    expect(
      readStripeEvent({
        type: 'payment_intent.payment_failed',
        data: { object: intent({ last_payment_error: { message: 'Your card was declined.' } }) },
      }),
    ).toEqual({ attemptId: attempt, declined: 'declined by Stripe: Your card was declined.' });
    expect(readStripeEvent({ type: 'payment_intent.payment_failed', data: { object: intent() } })).toEqual({
      attemptId: attempt,
      declined: 'declined by Stripe: the payment failed',
    });
  });

  it('ignores other events, other objects and PaymentIntents that are not our attempts', () => {
    expect(readStripeEvent({ type: 'customer.created', data: { object: { id: 'cus_1' } } })).toHaveProperty('ignored');
    expect(
      readStripeEvent({ type: 'payment_intent.succeeded', data: { object: { id: 'ch_1', object: 'charge' } } }),
    ).toHaveProperty('ignored');
    expect(
      readStripeEvent({ type: 'payment_intent.succeeded', data: { object: intent({ metadata: {} }) } }),
    ).toHaveProperty('ignored');
    expect(
      readStripeEvent({
        type: 'payment_intent.succeeded',
        data: { object: intent({ metadata: { switchboard_top_up_attempt: "x' OR 1=1" } }) },
      }),
    ).toHaveProperty('ignored');
    expect(readStripeEvent({ type: 'payment_intent.succeeded' })).toHaveProperty('ignored');
  });

  it('reads a completed Checkout Session in setup mode as a card setup of its customer and SetupIntent', () => {
    const session = (extra: Record<string, unknown> = {}) => ({
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_test_1',
          object: 'checkout.session',
          mode: 'setup',
          customer: 'cus_1',
          setup_intent: 'seti_1',
          ...extra,
        },
      },
    });
    expect(readStripeEvent(session())).toEqual({
      cardSetup: { sessionId: 'cs_test_1', customerId: 'cus_1', setupIntentId: 'seti_1' },
    });
    expect(readStripeEvent(session({ mode: 'payment' }))).toHaveProperty('ignored');
    expect(readStripeEvent(session({ customer: null }))).toHaveProperty('ignored');
    expect(readStripeEvent(session({ setup_intent: "seti_1' OR 1=1" }))).toHaveProperty('ignored');
    expect(readStripeEvent({ type: 'checkout.session.completed', data: { object: intent() } })).toHaveProperty(
      'ignored',
    );
  });
});
