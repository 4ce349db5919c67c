/** A number's webhook as the dispatcher uses it: the URL and the secret to sign with, opened. */
export interface WebhookTarget {
  number_id: string;
  /** Null when the number has no webhook (nothing is sent). */
  webhook_url: string | null;
  /** Never logged, never stored: held only while an attempt is signed. */
  webhook_secret: string;
  /** The secret before a rotation, while its overlap lasts (deliveries are signed with both); else absent. */
  previous_webhook_secret?: string | null;
}

/**
 * Where a number's events go and the key to sign them with, asked of numbers-billing at send time (the
 * dispatcher keeps no copy of secrets). Throws the owner's `ServiceError`; `service_unavailable` when it does
 * not answer.
 */
export interface WebhookTargets {
  find(numberId: string, correlationId: string): Promise<WebhookTarget>;
}

export const WEBHOOK_TARGETS = Symbol('WEBHOOK_TARGETS');
