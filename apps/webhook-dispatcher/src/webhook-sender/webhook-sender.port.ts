import type { ResolvedTarget } from '@switchboard/egress';

export interface WebhookRequest {
  /** The checked target: the request goes to `target.address`, never to a fresh DNS answer. */
  target: ResolvedTarget;
  body: Buffer;
  headers: Record<string, string>;
  /** The attempt is abandoned when no status line has come by then. */
  timeoutMs: number;
  /** Keep up to this many bytes of the answer's body (default: none; the body is drained and thrown away). */
  captureResponseBytes?: number;
}

/** What came back: a status (any, redirects included, never followed), or why none came. */
export type WebhookResponse =
  { statusCode: number; body?: string; retryAfter?: string } | { error: string; timedOut?: boolean };

/** Sends one webhook POST. Never throws: every failure is an answer. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');
