import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorCode, ProviderName } from '@switchboard/contracts';
import { MAX_JSON_DEPTH, findUnusableText } from '../http/hostile-input';

export { PROVIDER_WEBHOOKS_PATH } from '../http/provider-webhooks-path';

/** A provider's webhook request as it arrived: nothing of the body has been read yet. */
export interface ProviderWebhookRequest {
  /** The callback after `/provider-webhooks/<provider>/`, e.g. `status` for Twilio; `''` when there is none. */
  callback: string;
  /** The path and query as received (Twilio signs the whole URL). */
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw bytes: signatures are over these, so nothing may parse or re-encode them first. */
  body: Buffer;
}

/** What a verifier hands on once the signature holds. */
export interface VerifiedProviderEvent {
  /** The provider's id of the event, accepted once (`ProviderEventReceivedData.event_id`). */
  eventId: string;
  kind: string;
  payload: Record<string, unknown>;
}

/**
 * One provider's check of its webhooks: signature first, over the raw bytes (or, for Twilio, the URL and the form
 * parameters it signs), then the few fields that identify the event. Throws `ProviderWebhookRefused`.
 */
export interface ProviderWebhookVerifier {
  readonly provider: ProviderName;
  verify(request: ProviderWebhookRequest): Promise<VerifiedProviderEvent>;
}

/**
 * A refused provider webhook: answered with this status and the error envelope; nothing is recorded. `detail`, when
 * given, is logged but never answered (what the sender must not learn, e.g. that only the account was wrong).
 */
export class ProviderWebhookRefused extends Error {
  constructor(
    readonly code: Extract<ErrorCode, 'invalid_request' | 'unauthorized' | 'not_found' | 'unsupported_media_type'>,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ProviderWebhookRefused';
  }
}

/** The one header value of `name`, or undefined when it is missing or repeated (a repeated signature is refused). */
export function singleHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The media type of the request without parameters, lower case. */
export function mediaType(headers: IncomingHttpHeaders): string | undefined {
  return singleHeader(headers, 'content-type')?.split(';')[0].trim().toLowerCase();
}

/** Parses a verified JSON body that must be an object. */
export function parseJsonObject(body: Buffer, provider: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ProviderWebhookRefused('invalid_request', `The ${provider} event is not JSON.`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ProviderWebhookRefused('invalid_request', `The ${provider} event is not a JSON object.`);
  return parsed as Record<string, unknown>;
}

/** A string field of a verified payload, required. */
export function requiredString(payload: Record<string, unknown>, field: string, provider: string): string {
  const value = payload[field];
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    throw new ProviderWebhookRefused('invalid_request', `The ${provider} event has no usable "${field}".`);
  return value;
}

/**
 * Refuses a verified event that could never be stored: a NUL byte anywhere in the raw body, a payload nested more
 * than MAX_JSON_DEPTH levels (the API's own limit; Stripe's deepest events nest about ten), or a NUL or unpaired
 * surrogate in any text of it, names included (PostgreSQL's text and jsonb cannot hold them). Checked after the
 * signature and before anything is written: without it the insert failed, the answer was a 503 and the provider
 * sent the same event again for days. A 400 tells the provider that sending it again cannot help.
 */
export function refuseUnstorable(provider: string, body: Buffer, payload: Record<string, unknown>): void {
  if (body.includes(0))
    throw new ProviderWebhookRefused('invalid_request', `The ${provider} event contains a NUL byte (0x00).`);
  if (nestedDeeperThan(payload, MAX_JSON_DEPTH))
    throw new ProviderWebhookRefused(
      'invalid_request',
      `The ${provider} event nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`,
    );
  const unusable = findUnusableText(payload);
  if (unusable)
    throw new ProviderWebhookRefused(
      'invalid_request',
      `The ${provider} event's ${unusable.where ? `field ${unusable.where}` : 'payload'} ${unusable.problem}.`,
    );
}

/** Whether a parsed value nests arrays or objects more than `max` levels; looks no deeper than `max + 1`. */
function nestedDeeperThan(value: unknown, max: number, depth = 1): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth > max) return true;
  return Object.values(value).some((item) => nestedDeeperThan(item, max, depth + 1));
}
