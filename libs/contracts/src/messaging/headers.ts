/** NATS message headers that carry the caller and the trace across services. */
export const HEADERS = {
  /** The authenticated account the gateway acts for. Set only by the gateway. */
  accountId: 'sb-account-id',
  /** The public request id (also answered as `X-Request-Id`). */
  requestId: 'sb-request-id',
  /**
   * Set by the gateway for a public API key's request whose answer is the reply as it comes (`true` or `false`, the
   * key's mode): the service sets `livemode` on its reply (`markLivemode`, docs/adr/0115).
   */
  livemode: 'sb-livemode',
  /** W3C trace context. */
  traceparent: 'traceparent',
  tracestate: 'tracestate',
} as const;

/** Services, as they name themselves in health replies, logs and traces. */
export const SERVICES = ['gateway', 'numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'] as const;
export type ServiceName = (typeof SERVICES)[number];
