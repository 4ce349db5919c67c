/** A number's webhook as the dispatcher uses it: the URL, the secret to sign with, opened, and its subscriptions. */
export interface WebhookTarget {
  number_id: string;
  /** Null when the number has no webhook (nothing is sent). */
  webhook_url: string | null;
  /** Never logged, never stored: held only while an attempt is signed. */
  webhook_secret: string;
  /** The secret before a rotation, while its overlap lasts (deliveries are signed with both); else absent. */
  previous_webhook_secret?: string | null;
  /** When the previous secret's overlap ends (ISO 8601), sent with it. */
  previous_webhook_secret_expires_at?: string | null;
  /** The event types the number is subscribed to (its `webhook_events`): opt-in events go only where listed. */
  webhook_events: string[];
}

/**
 * Where a number's events go and the key to sign them with, asked of numbers-billing and kept in memory until the
 * number changes (ADR 0075; secrets are never stored). Throws the owner's `ServiceError`; `service_unavailable`
 * when it does not answer.
 */
export interface WebhookTargets {
  /** `fresh`: asked of numbers-billing even when kept (a test event, sent just after the integrator changed it). */
  find(numberId: string, correlationId: string, options?: { fresh?: boolean }): Promise<WebhookTarget>;
}

export const WEBHOOK_TARGETS = Symbol('WEBHOOK_TARGETS');
