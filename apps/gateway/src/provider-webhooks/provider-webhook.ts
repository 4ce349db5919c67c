import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorCode, ProviderName } from '@switchboard/contracts';

/** Where providers send their webhooks, outside `/v1` and outside API-key authentication (the signature is theirs). */
export const PROVIDER_WEBHOOKS_PATH = '/provider-webhooks';

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
