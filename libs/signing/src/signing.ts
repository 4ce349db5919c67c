import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Switchboard webhook signatures (spec part 6): `X-Switchboard-Signature: v1=<hex>`, the HMAC-SHA256 of
 * `<timestamp>.<raw_body>` keyed by the number's `webhook_secret`, with `X-Switchboard-Timestamp` the Unix epoch
 * seconds at signing. Node's crypto only: integrators can use this file in their receivers as it is.
 */
export const TIMESTAMP_HEADER = 'X-Switchboard-Timestamp';
export const SIGNATURE_HEADER = 'X-Switchboard-Signature';
/**
 * The event's id, the same on every attempt. Not covered by the `v1` signature (timestamp and body only), so a replay
 * can change it: de-duplicate on the signed body's ids, or on the Standard Webhooks `webhook-id`, which is signed.
 */
export const EVENT_ID_HEADER = 'X-Switchboard-Event-Id';
export const SIGNATURE_SCHEME = 'v1';
/** How far a timestamp may be from the receiver's clock, either way, before the event is refused as a replay. */
export const DEFAULT_TOLERANCE_SEC = 300;

/** The body exactly as sent or received: bytes, or a string (hashed as UTF-8). */
export type RawBody = string | Uint8Array;

export interface Signature {
  /** Unix epoch seconds at signing: the value of `X-Switchboard-Timestamp`. */
  timestamp: number;
  /** Lower-case hex HMAC-SHA256 of `<timestamp>.<raw_body>`. */
  signature: string;
}

/** The hex HMAC-SHA256 of `<timestamp>.<raw_body>` keyed by `secret`. */
export function computeSignature(secret: string, timestamp: number, rawBody: RawBody): string {
  assertSecret(secret);
  assertTimestamp(timestamp);
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

/** Signs a body at `timestamp` (default: now). */
export function sign(secret: string, rawBody: RawBody, timestamp: number = Math.floor(Date.now() / 1000)): Signature {
  return { timestamp, signature: computeSignature(secret, timestamp, rawBody) };
}

/** The `X-Switchboard-Signature` value for a hex signature: `v1=<hex>`. */
export function signatureHeader(signature: string | Signature): string {
  return `${SIGNATURE_SCHEME}=${typeof signature === 'string' ? signature : signature.signature}`;
}

/**
 * Both signing headers for a body, ready to send. With several secrets (a rotation's overlap: the new one first),
 * the signature header carries one `v1=` value per secret, space-separated: `v1=<new> v1=<old>`.
 */
export function signedHeaders(
  secret: string | readonly string[],
  rawBody: RawBody,
  timestamp: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError('at least one webhook secret is needed');
  return {
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: secrets.map((one) => signatureHeader(computeSignature(one, timestamp, rawBody))).join(' '),
  };
}

/** A header as Node's `IncomingMessage.headers` (or any framework) hands it over. */
export type HeaderValue = string | readonly string[] | null | undefined;

export interface VerifyOptions {
  /** The number's `webhook_secret`; several during a rotation of your own (any one matching is enough). */
  secret: string | readonly string[];
  /** The request body exactly as received, before any JSON parsing. */
  rawBody: RawBody;
  /** `X-Switchboard-Timestamp`. */
  timestampHeader: HeaderValue;
  /** `X-Switchboard-Signature`. */
  signatureHeader: HeaderValue;
  /** Largest accepted distance between the timestamp and `now`, in seconds (default 300). */
  toleranceSec?: number;
  /** The receiver's clock (default: the current time); anything but a valid `Date` throws a TypeError. */
  now?: Date;
}

export type VerifyFailure =
  | 'missing_timestamp'
  | 'invalid_timestamp'
  | 'missing_signature'
  | 'invalid_signature'
  | 'signature_mismatch'
  | 'timestamp_out_of_tolerance';

export type VerifyResult = { valid: true; timestamp: number } | { valid: false; reason: VerifyFailure };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Checks a delivery: recomputes the HMAC over the timestamp, a dot and the raw body, compares it in constant
 * time with every `v1=` value of the signature header (a space- or comma-separated list is accepted, other
 * schemes are ignored; any value matching any of the secrets is enough), then refuses a timestamp further than
 * `toleranceSec` from `now`, so a captured request cannot be
 * replayed later. Never throws on bad input: the reason says what was wrong.
 */
export function verify(options: VerifyOptions): VerifyResult {
  const { rawBody } = options;
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (secrets.length === 0) throw new TypeError('at least one webhook secret is needed');
  secrets.forEach(assertSecret);
  const toleranceSec = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  if (!Number.isFinite(toleranceSec) || toleranceSec < 0) throw new RangeError('toleranceSec must be a number >= 0');
  const nowSec = receiverClockSec(options.now);

  const rawTimestamp = firstValue(options.timestampHeader);
  if (rawTimestamp === undefined) return { valid: false, reason: 'missing_timestamp' };
  if (!/^\d{1,15}$/.test(rawTimestamp)) return { valid: false, reason: 'invalid_timestamp' };
  const timestamp = Number(rawTimestamp);

  const rawSignature = firstValue(options.signatureHeader);
  if (rawSignature === undefined) return { valid: false, reason: 'missing_signature' };
  const candidates = rawSignature
    // Space-separated (Standard Webhooks, and a rotation's `v1=<new> v1=<old>`) or comma-separated.
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${SIGNATURE_SCHEME}=`))
    .map((part) => part.slice(SIGNATURE_SCHEME.length + 1));
  if (candidates.length === 0 || !candidates.every((hex) => HEX_SHA256.test(hex))) {
    return { valid: false, reason: 'invalid_signature' };
  }

  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'hex');
    for (const hex of candidates) {
      // Both sides are 32 bytes, so timingSafeEqual never throws and the comparison time leaks nothing.
      if (timingSafeEqual(expected, Buffer.from(hex, 'hex'))) matched = true;
    }
  }
  if (!matched) return { valid: false, reason: 'signature_mismatch' };

  if (Math.abs(nowSec - timestamp) > toleranceSec) return { valid: false, reason: 'timestamp_out_of_tolerance' };
  return { valid: true, timestamp };
}

/**
 * `now` in whole epoch seconds, the current time when it is not given. An invalid Date (`new Date(NaN)`), a number or
 * a string throws: compared with NaN every timestamp would look fresh, so a stale delivery would verify.
 */
function receiverClockSec(now: Date | null | undefined): number {
  if (now === undefined || now === null) return Math.floor(Date.now() / 1000);
  const ms = Object.prototype.toString.call(now) === '[object Date]' ? now.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new TypeError('now must be a valid Date');
  return Math.floor(ms / 1000);
}

function firstValue(header: HeaderValue): string | undefined {
  const value = typeof header === 'string' ? header : header?.[0];
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function assertSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError('the webhook secret must be a non-empty string');
}

function assertTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new RangeError('the timestamp must be whole epoch seconds >= 0');
}
