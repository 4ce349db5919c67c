import type { WebhookCopy } from '@switchboard/contracts';

/**
 * Where a copy of each signed delivery goes, for the listeners of `GET /v1/numbers/{id}/webhook/listen`
 * (docs/adr/0128-webhook-signatures-secrets-and-listen.md). Fire and forget: never throws, never delays the delivery, and a copy nobody
 * listens to is simply dropped.
 */
export interface WebhookCopies {
  publish(accountId: string, copy: WebhookCopy): void;
}

export const WEBHOOK_COPIES = Symbol('WEBHOOK_COPIES');
