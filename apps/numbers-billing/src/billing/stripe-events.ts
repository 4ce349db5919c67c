import { ATTEMPT_METADATA_KEY } from '../payments/stripe-payment.adapter';

/** What a Stripe event says about one of our auto-top-up attempts, if anything. */
export type StripeTopUpOutcome =
  { attemptId: string; paymentId: string } | { attemptId: string; declined: string } | { ignored: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Reads a verified Stripe event (the gateway checked its signature, ADR 0083): `payment_intent.succeeded` and
 * `payment_intent.payment_failed` of a PaymentIntent we created for an attempt (its metadata names it) settle that
 * attempt; anything else is acknowledged and ignored, with the reason for the log.
 */
export function readStripeEvent(event: Record<string, unknown>): StripeTopUpOutcome {
  const type = event.type;
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
