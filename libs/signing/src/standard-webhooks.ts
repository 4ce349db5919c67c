import { createHmac } from 'node:crypto';
import type { RawBody } from './signing';

/**
 * Standard Webhooks (https://www.standardwebhooks.com) headers, sent beside Switchboard's own so receivers can use
 * the standard verification libraries: `webhook-id` (the event id), `webhook-timestamp` (epoch seconds, the same as
 * `X-Switchboard-Timestamp`) and `webhook-signature`, `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one per
 * secret, space-separated during a rotation's overlap.
 */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

/** A Switchboard secret as minted: `whsec_` and 32 random bytes in base64url (43 characters). */
const MINTED_SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;

/**
 * The HMAC key of the Standard Webhooks signature for a `webhook_secret`: the 32 bytes the secret encodes (as the
 * standard's `whsec_<base64>` secrets do); a secret of another form is used as its UTF-8 bytes (the libraries'
 * `format: "raw"`).
 */
export function standardWebhooksKey(secret: string): Buffer {
  if (MINTED_SECRET.test(secret)) return Buffer.from(secret.slice('whsec_'.length), 'base64url');
  return Buffer.from(secret, 'utf8');
}

/**
 * The same secret as the Standard Webhooks libraries take it (`new Webhook(secret)`): `whsec_` and the key in
 * standard base64. Switchboard secrets are base64url, which those libraries do not decode.
 */
export function toStandardWebhooksSecret(secret: string): string {
  return `whsec_${standardWebhooksKey(secret).toString('base64')}`;
}

/** `v1,<base64>`: the Standard Webhooks signature of one body with one secret. */
export function standardSignature(secret: string, eventId: string, timestamp: number, rawBody: RawBody): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret))
    .update(`${eventId}.${timestamp}.`, 'utf8')
    .update(rawBody)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers for a body, one signature per secret (new first). */
export function standardWebhookHeaders(
  secrets: string | readonly string[],
  eventId: string,
  rawBody: RawBody,
  timestamp: number,
): Record<string, string> {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return {
    [STANDARD_ID_HEADER]: eventId,
    [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_SIGNATURE_HEADER]: list.map((secret) => standardSignature(secret, eventId, timestamp, rawBody)).join(' '),
  };
}
