import { IsString, Matches } from 'class-validator';
import { defineRpc } from '../messaging/rpc';
import { NUMBER_ID_PATTERN } from './number.dto';

export class GetWebhookTargetQuery {
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
  /** The asker's X25519 public key (base64url, 32 bytes): the secret comes back sealed for it. */
  @IsString() @Matches(/^[A-Za-z0-9_-]{43}$/) recipient_key: string;
}

/**
 * Internal only (webhook-dispatcher): where to send a number's events and the key to sign them with. The key never
 * crosses the bus in plaintext (docs/adr/0128-webhook-signatures-secrets-and-listen.md).
 */
export interface WebhookTarget {
  number_id: string;
  /** Null when the number has no webhook (nothing is sent). */
  webhook_url: string | null;
  /** The `webhook_secret` sealed for `recipient_key`, bound to the number id (libs/messaging `sealFor`). */
  webhook_secret_sealed: string;
  /**
   * The secret before the last rotation, sealed the same way, while its overlap lasts (deliveries are signed with
   * both: docs/adr/0128-webhook-signatures-secrets-and-listen.md); absent or null otherwise.
   */
  previous_webhook_secret_sealed?: string | null;
  /** When the overlap of `previous_webhook_secret_sealed` ends (ISO 8601): sent with it, absent otherwise. */
  previous_webhook_secret_expires_at?: string | null;
  /**
   * The event types the number is subscribed to, as its `webhook_events` shows them (`call.completed` first). Absent
   * in a reply from a numbers-billing older than opt-in call events: read as `["call.completed"]`.
   */
  webhook_events?: string[];
}

/** The context a webhook secret is sealed under on the bus: a sealed secret opens only for its own number. */
export function webhookSecretSealContext(numberId: string): string {
  return `webhook-target:${numberId}`;
}

/** v2: v1 answered the secret in plaintext; a v1 asker now finds no responder rather than a reply it cannot use. */
export const WebhookTargetRpc = defineRpc<GetWebhookTargetQuery, WebhookTarget>(
  'numbers.v2.webhook-target.get',
  GetWebhookTargetQuery,
);
