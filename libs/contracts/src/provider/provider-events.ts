import { IsIn, IsISO8601, IsString, MaxLength, ValidateBy } from 'class-validator';
import { defineEvent, STREAMS } from '../messaging/event';

/**
 * The outside providers whose webhooks the gateway takes in on `POST /provider-webhooks/{provider}/...`
 * (docs/adr/0083-real-providers.md). The gateway verifies each request's signature before it reads the
 * body, records the event once per (provider, event id), and publishes it through its outbox; the service that
 * owns the data consumes it durably: numbers-billing Stripe's payment results, calls-media Twilio's call and
 * recording callbacks and the agent platform's call reports.
 */
export const PROVIDERS = ['stripe', 'twilio', 'retell'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** A verified provider body: a JSON object (Twilio's form as one) with at least one field. */
function IsProviderPayload(): PropertyDecorator {
  return ValidateBy({
    name: 'isProviderPayload',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0,
      defaultMessage: () => 'payload must be a non-empty object',
    },
  });
}

/** One verified provider webhook, as received. */
export class ProviderEventReceivedData {
  @IsIn(PROVIDERS) provider: ProviderName;
  /**
   * The provider's own id of the event, the key it is accepted under exactly once: Stripe's `evt_...`; Twilio's
   * `<CallSid>:<CallStatus>` for a status callback and `<RecordingSid>` for a recording callback; Retell's
   * `<call_id>:<event>`, and `<call_id>:transcript_updated:<turns>` for each of a call's transcript updates.
   */
  @IsString() @MaxLength(200) event_id: string;
  /**
   * What happened, in the provider's words: Stripe's event `type` (`payment_intent.succeeded`); Twilio's callback
   * (`call.status`, `recording.status`); Retell's `event` (`call_ended`, `call_analyzed`).
   */
  @IsString() @MaxLength(100) kind: string;
  /**
   * The verified request body: the JSON object for Stripe and Retell, the form parameters as an object of strings
   * for Twilio. Handlers validate what they read of it.
   */
  @IsProviderPayload() payload: Record<string, unknown>;
  @IsISO8601() received_at: string;
}

/**
 * One event type per provider, so each consumer filters its own subject. The envelope id is a name-based UUID of
 * `providerEventId(provider, event_id)`: the same provider event always has the same envelope id.
 */
export const StripeEventReceivedEvent = defineEvent(
  'provider.stripe.received',
  STREAMS.provider,
  ProviderEventReceivedData,
);
export const TwilioEventReceivedEvent = defineEvent(
  'provider.twilio.received',
  STREAMS.provider,
  ProviderEventReceivedData,
);
export const RetellEventReceivedEvent = defineEvent(
  'provider.retell.received',
  STREAMS.provider,
  ProviderEventReceivedData,
);

export const PROVIDER_EVENTS = {
  stripe: StripeEventReceivedEvent,
  twilio: TwilioEventReceivedEvent,
  retell: RetellEventReceivedEvent,
} as const;

/** The key a provider event is accepted under once, and the name its envelope id is derived from. */
export function providerEventId(provider: ProviderName, eventId: string): string {
  return `${provider}:${eventId}`;
}
