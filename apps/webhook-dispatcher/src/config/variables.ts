import { defineEnvVariables, sharedServiceVariables, type EnvVariable } from '@switchboard/service-runtime';

/**
 * webhook-dispatcher's own variables, with their defaults; `loadWebhookDispatcherConfig` reads them, the README's
 * table lists them.
 */
export const WEBHOOK_DISPATCHER_VARIABLES = defineEnvVariables({
  WEBHOOK_BACKOFF_BASE_MS: {
    default: 30000,
    meaning: 'delay before the second attempt; doubles after each failure, plus 0-25% jitter',
  },
  WEBHOOK_BACKOFF_MAX_MS: { default: 600000, meaning: 'cap on one delay (before jitter)' },
  WEBHOOK_TIMEOUT_MS: { default: 10000, meaning: 'bound on a whole attempt: DNS, connect, TLS, request, status line' },
  WEBHOOK_SWEEP_INTERVAL_MS: {
    default: 1000,
    meaning: 'how often due redeliveries and recoveries are looked for (ADR 0075)',
  },
  WEBHOOK_DISABLE_AFTER_MS: {
    default: 432000000,
    shown: '`432000000` (5 days)',
    meaning:
      'a run of failed attempts this long, and `WEBHOOK_DISABLE_MIN_FAILURES` long, disables the endpoint (410 Gone disables at once; ADR 0075)',
  },
  WEBHOOK_DISABLE_MIN_FAILURES: { default: 10, meaning: 'failed attempts in that run before the endpoint is disabled' },
  WEBHOOK_RETRY_AFTER_MAX_MS: { default: 3600000, meaning: 'the longest `Retry-After` of a 429/503 honoured' },
  WEBHOOK_CONCURRENCY: { default: 32, meaning: 'events handled at once by one process' },
  WEBHOOK_HOST_CONCURRENCY: {
    default: 4,
    meaning: 'attempts on the wire at once to one receiver (host and port), across all replicas (ADR 0075)',
  },
  WEBHOOK_CONNECTION_REUSE_WAIT_MS: {
    default: 250,
    meaning:
      'how long an attempt waits for one on the wire to the same receiver to end, to reuse its connection (0-10000; 0: never waits; ADR 0075)',
  },
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: {
    shown: 'empty',
    meaning:
      'comma-separated hosts exempt from the public-address rule, for local testing; a warning is logged at start when set',
  },
  NODE_EXTRA_CA_CERTS: {
    meaning: "(Node's own, read at process start) extra CA trusted for receivers with private certificates",
  },
  WEBHOOK_TEST_CA_FILE: {
    meaning: 'tests only (`NODE_ENV=test`, refused otherwise): the same for a dispatcher running inside a test process',
  },
  NODE_ENV: { meaning: '`test` allows `WEBHOOK_TEST_CA_FILE`' },
});

/**
 * Every variable webhook-dispatcher reads, its own and its libraries', in the README's order. The ack wait is
 * `NATS_REQUEST_TIMEOUT_MS + WEBHOOK_CONNECTION_REUSE_WAIT_MS + WEBHOOK_TIMEOUT_MS + 10 s`.
 */
export const webhookDispatcherVariables: readonly EnvVariable[] = [
  ...Object.values(WEBHOOK_DISPATCHER_VARIABLES),
  ...sharedServiceVariables({ prefix: 'WEBHOOK_DISPATCHER', directory: 'webhook-dispatcher', healthServer: true }),
];
