/**
 * Every error code the public and operator APIs answer with, and the HTTP status each one maps to
 * (spec part 7, operator contract). One table: services raise codes, the gateway maps them to statuses.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  not_signed_in: 401,
  invalid_credentials: 401,
  csrf_failed: 403,
  forbidden: 403,
  invite_not_found: 404,
  already_a_user: 409,
  last_owner: 409,
  sign_in_throttled: 429,
  insufficient_balance: 402,
  not_found: 404,
  no_recording: 404,
  location_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  no_numbers: 409,
  verification_required: 409,
  claim_not_open: 409,
  item_not_available: 409,
  hold_period_not_over: 409,
  key_limit: 409,
  idempotency_key_reused: 422,
  idempotency_key_in_use: 409,
  idempotency_key_expired: 422,
  number_released: 409,
  number_not_in_service: 422,
  event_not_redeliverable: 409,
  no_webhook: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  urgent_category: 422,
  rate_limited: 429,
  headers_too_large: 431,
  number_limit: 429,
  provision_velocity: 429,
  text_limit: 429,
  internal_error: 500,
  provider_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * `Retry-After` (seconds) of the retryable answers when the error does not say better (an order's lease does):
 * the message bus, a service or its database being down clears within seconds (clients reconnect every 0.5 s,
 * a restarted service is back in a few), while a telephony provider outage is its own and rarely that short.
 * docs/adr/0055-the-gateway-edge.md.
 */
export const DEFAULT_RETRY_AFTER_SECONDS: Partial<Record<ErrorCode, number>> = {
  service_unavailable: 5,
  provider_unavailable: 30,
};

export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

/** The public error envelope: `{ error: { code, message } }`. */
export interface ErrorEnvelope {
  error: ErrorBody;
}

export function errorEnvelope(code: ErrorCode, message: string): ErrorEnvelope {
  return { error: { code, message } };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

/**
 * An expected failure of a use case: raised by the service that owns the rule, carried over NATS as
 * `{ code, message }`, answered by the gateway with the code's status. Anything else is a bug (500).
 */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** When retrying may succeed, if the raiser knows better than `DEFAULT_RETRY_AFTER_SECONDS` (a lease's end). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** Seconds for `Retry-After`: the raiser's own, else the code's default; undefined for answers not worth retrying as is. */
  get retryAfter(): number | undefined {
    return this.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS[this.code];
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message };
  }
}
