import { timingSafeEqual } from 'node:crypto';
import { DEFAULT_TOLERANCE_SEC, SIGNATURE_HEADER, TIMESTAMP_HEADER, verify, type VerifyFailure } from './signing';
import {
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  standardSignature,
} from './standard-webhooks';

/** Why a delivery does not verify, as precisely as the bytes allow. */
export type VerificationDiagnosis =
  | 'valid'
  | 'missing_timestamp'
  | 'invalid_timestamp'
  | 'timestamp_in_milliseconds'
  | 'missing_signature'
  | 'invalid_signature'
  | 'standard_signature_in_switchboard_header'
  | 'timestamp_out_of_tolerance'
  | 'body_reserialized'
  | 'body_whitespace_changed'
  | 'secret_whitespace'
  | 'secret_without_prefix'
  | 'signature_mismatch';

export interface VerificationExplanation {
  valid: boolean;
  diagnosis: VerificationDiagnosis;
  /** One or two sentences saying what is wrong and what to do. */
  explanation: string;
  /** `now - timestamp` in seconds, when the timestamp could be read. */
  clock_skew_seconds: number | null;
  /** The Standard Webhooks headers' verdict: null when they were not sent. */
  standard_webhooks_valid: boolean | null;
}

export interface ExplainOptions {
  secret: string;
  rawBody: string;
  /** The request's headers, any case. */
  headers: Record<string, string>;
  toleranceSec?: number;
  now?: Date;
}

/**
 * The verification self-test (`POST /v1/webhooks/verify`): runs `verify`, and when it fails looks for the usual
 * causes by trying the likely repairs (a body parsed and serialised again, a trailing newline, a secret with spaces or
 * without its `whsec_` prefix, a timestamp in milliseconds, our header holding a Standard Webhooks value) and says
 * which one would have verified. A mismatch none of them explains is a wrong secret or a changed body: the bytes
 * cannot tell which.
 */
export function explainVerification(options: ExplainOptions): VerificationExplanation {
  const headers = Object.fromEntries(
    Object.entries(options.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const timestampHeader = headers[TIMESTAMP_HEADER.toLowerCase()];
  const signatureHeader = headers[SIGNATURE_HEADER.toLowerCase()];
  const now = options.now ?? new Date();
  const toleranceSec = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  const nowSec = Math.floor(now.getTime() / 1000);
  // As verify(): a NaN clock would make every timestamp look fresh.
  if (!Number.isFinite(nowSec)) throw new TypeError('now must be a valid Date');
  const timestamp = /^\d{1,15}$/.test(timestampHeader?.trim() ?? '') ? Number(timestampHeader.trim()) : null;
  const skew = timestamp === null ? null : nowSec - timestamp;
  const standard = standardVerdict(options.secret, options.rawBody, headers);
  const answer = (diagnosis: VerificationDiagnosis, explanation: string): VerificationExplanation => ({
    valid: diagnosis === 'valid',
    diagnosis,
    explanation,
    clock_skew_seconds: skew,
    standard_webhooks_valid: standard,
  });
  const check = (secret: string, rawBody: string, at = now) =>
    verify({ secret, rawBody, timestampHeader, signatureHeader, toleranceSec, now: at });

  if (!options.secret) return answer('signature_mismatch', 'The secret is empty.');
  const result = check(options.secret, options.rawBody);
  if (result.valid)
    return answer('valid', 'The signature matches the body and the secret, and the timestamp is within the tolerance.');
  const reason: VerifyFailure = result.reason;
  if (
    /^\d{13}$/.test(timestampHeader?.trim() ?? '') &&
    reason !== 'missing_signature' &&
    reason !== 'invalid_signature'
  ) {
    return answer(
      'timestamp_in_milliseconds',
      `${TIMESTAMP_HEADER} looks like milliseconds; it is Unix seconds as sent, do not convert it.`,
    );
  }
  switch (reason) {
    case 'missing_timestamp':
      return answer('missing_timestamp', `No ${TIMESTAMP_HEADER} header: pass it as received (Unix seconds).`);
    case 'invalid_timestamp':
      return answer('invalid_timestamp', `${TIMESTAMP_HEADER} must be whole Unix seconds, as sent (e.g. 1763658224).`);
    case 'missing_signature':
      return answer('missing_signature', `No ${SIGNATURE_HEADER} header: pass it as received.`);
    case 'invalid_signature':
      if (/(^|\s)v1,/.test(signatureHeader)) {
        return answer(
          'standard_signature_in_switchboard_header',
          `${SIGNATURE_HEADER} holds a Standard Webhooks value (v1,<base64>); that one is webhook-signature. ${SIGNATURE_HEADER} is v1=<64 hex digits>.`,
        );
      }
      return answer(
        'invalid_signature',
        `${SIGNATURE_HEADER} must be one or more space-separated v1=<64 hex digits> values, as sent.`,
      );
    case 'timestamp_out_of_tolerance':
      return answer(
        'timestamp_out_of_tolerance',
        `The signature matches, but the timestamp is ${Math.abs(skew ?? 0)} s ${(skew ?? 0) >= 0 ? 'in the past' : 'in the future'} (tolerance ${toleranceSec} s): ` +
          'a replayed request, or a receiver clock that is wrong (check NTP).',
      );
    default:
      break;
  }
  // The signature does not match: try the usual mistakes, at the signing time so the clock does not matter here.
  const atSigning = timestamp === null ? now : new Date(timestamp * 1000);
  const signedWith = (secret: string, body: string) => check(secret, body, atSigning).valid;
  for (const body of [options.rawBody.trim(), `${options.rawBody}\n`, options.rawBody.replace(/\r\n/g, '\n')]) {
    if (body !== options.rawBody && signedWith(options.secret, body)) {
      return answer(
        'body_whitespace_changed',
        'The body differs from what was sent only in whitespace (a newline added or removed): verify the raw bytes as received.',
      );
    }
  }
  let compact: string | undefined;
  try {
    compact = JSON.stringify(JSON.parse(options.rawBody));
  } catch {
    compact = undefined;
  }
  if (compact !== undefined && compact !== options.rawBody && signedWith(options.secret, compact)) {
    return answer(
      'body_reserialized',
      'The body was parsed and serialised again (spacing, key order or escapes changed): verify the raw bytes as received, before any JSON parsing.',
    );
  }
  if (options.secret.trim() !== options.secret && signedWith(options.secret.trim(), options.rawBody)) {
    return answer(
      'secret_whitespace',
      'The secret has spaces or a newline around it (often from an environment file): trim it.',
    );
  }
  if (!options.secret.startsWith('whsec_') && signedWith(`whsec_${options.secret}`, options.rawBody)) {
    return answer(
      'secret_without_prefix',
      'The secret is used without its whsec_ prefix: the whole value, prefix included, is the HMAC key.',
    );
  }
  return answer(
    'signature_mismatch',
    'The signature does not match: the secret is not the one this number signs with (after a rotation, use the new one; during the overlap both work), ' +
      'or the body was changed on the way. Send a test event (POST /v1/numbers/{id}/webhook-test) and verify its raw body to tell which.',
  );
}

/** The Standard Webhooks signature's verdict (signature only, not the clock), or null when its headers are absent. */
function standardVerdict(secret: string, rawBody: string, headers: Record<string, string>): boolean | null {
  const id = headers[STANDARD_ID_HEADER];
  const timestamp = headers[STANDARD_TIMESTAMP_HEADER];
  const signature = headers[STANDARD_SIGNATURE_HEADER];
  if (!id || !timestamp || !signature || !secret) return null;
  if (!/^\d{1,15}$/.test(timestamp.trim())) return false;
  const expected = Buffer.from(standardSignature(secret, id, Number(timestamp.trim()), rawBody));
  return signature.split(/\s+/).some((value) => {
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
