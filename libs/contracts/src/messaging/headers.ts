/** NATS message headers that carry the caller and the trace across services. */
export const HEADERS = {
  /** The authenticated account the gateway acts for. Set only by the gateway. */
  accountId: 'sb-account-id',
  /** The public request id (also answered as `X-Request-Id`). */
  requestId: 'sb-request-id',
  /** W3C trace context. */
  traceparent: 'traceparent',
  tracestate: 'tracestate',
} as const;

/** Services, as they name themselves in health replies, logs and traces. */
export const SERVICES = ['gateway', 'numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'] as const;
export type ServiceName = (typeof SERVICES)[number];
