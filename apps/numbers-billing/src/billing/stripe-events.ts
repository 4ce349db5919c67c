import type { CompletedCardSetup } from '../payments/card-setup.service';
import { ATTEMPT_METADATA_KEY } from '../payments/stripe-payment.adapter';

/** What a Stripe event says about one of our auto-top-up attempts or card setups, if anything. */
export type StripeTopUpOutcome =
  | { attemptId: string; paymentId: string }
  | { attemptId: string; declined: string }
  | { cardSetup: CompletedCardSetup }
  | { ignored: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Reads a verified Stripe event (the gateway checked its signature, ADR 0083): `payment_intent.succeeded` and
 * `payment_intent.payment_failed` of a PaymentIntent we created for an attempt (its metadata names it) settle that
 * attempt; `checkout.session.completed` of a session in setup mode is a card connected from the console
 * (docs/adr/0131); anything else is acknowledged and ignored, with the reason for the log.
 */
export function readStripeEvent(event: Record<string, unknown>): StripeTopUpOutcome {
  const type = event.type;
  if (type === 'checkout.session.completed') return readCompletedCheckout(event);
  if (type !== 'payment_intent.succeeded' && type !== 'payment_intent.payment_failed')
    return { ignored: `event type ${String(type)} is not one auto-top-up waits for` };
  const intent = (event.data as { object?: Record<string, unknown> } | undefined)?.object;
  if (!intent || intent.object !== 'payment_intent' || typeof intent.id !== 'string')
    return { ignored: 'the event carries no PaymentIntent' };
  const attemptId = (intent.metadata as Record<string, unknown> | undefined)?.[ATTEMPT_METADATA_KEY];
  if (typeof attemptId !== 'string' || !UUID.test(attemptId))
    return { ignored: `PaymentIntent ${intent.id} is not an auto-top-up of ours` };
  if (type === 'payment_intent.succeeded') return { attemptId, paymentId: intent.id };
  const error = intent.last_payment_error as { message?: unknown } | null | undefined;
  return {
    attemptId,
    declined: `declined by Stripe: ${typeof error?.message === 'string' ? error.message : 'the payment failed'}`,
  };
}

const STRIPE_ID = /^[a-z]+_[A-Za-z0-9_]{1,250}$/;

/** A completed Checkout Session in setup mode names the customer and the SetupIntent whose card it saved. */
function readCompletedCheckout(event: Record<string, unknown>): StripeTopUpOutcome {
  const session = (event.data as { object?: Record<string, unknown> } | undefined)?.object;
  if (!session || session.object !== 'checkout.session' || typeof session.id !== 'string')
    return { ignored: 'the event carries no Checkout Session' };
  if (session.mode !== 'setup') return { ignored: `Checkout Session ${session.id} is not a card setup` };
  const { customer, setup_intent: setupIntent } = session;
  const customerId = typeof customer === 'object' && customer !== null ? (customer as { id?: unknown }).id : customer;
  const setupIntentId =
    typeof setupIntent === 'object' && setupIntent !== null ? (setupIntent as { id?: unknown }).id : setupIntent;
  if (typeof customerId !== 'string' || !STRIPE_ID.test(customerId))
    return { ignored: `Checkout Session ${session.id} names no customer` };
  if (typeof setupIntentId !== 'string' || !STRIPE_ID.test(setupIntentId))
    return { ignored: `Checkout Session ${session.id} names no SetupIntent` };
  return { cardSetup: { sessionId: session.id, customerId, setupIntentId } };
}
