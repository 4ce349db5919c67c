import type { WebhookTarget } from '@switchboard/contracts';

/**
 * Where a number's events go and the key to sign them with, asked of numbers-billing at send time (the
 * dispatcher keeps no copy of secrets). Throws the owner's `ServiceError`; `service_unavailable` when it does
 * not answer.
 */
export interface WebhookTargets {
  find(numberId: string, correlationId: string): Promise<WebhookTarget>;
}

export const WEBHOOK_TARGETS = Symbol('WEBHOOK_TARGETS');
