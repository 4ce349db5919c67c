import { readFileSync } from 'node:fs';
import { egressPolicyFromEnv, type EgressPolicy } from '@switchboard/egress';

import { ConfigError, envIntAtLeast, envIntBetween, messagingConfigFromEnv } from '@switchboard/service-runtime';
import { WEBHOOK_DISPATCHER_VARIABLES as V } from './variables';

/** Spec part 8: webhook delivery attempts. Not configurable. */
export const MAX_ATTEMPTS = 5;

/** Every variable webhook-dispatcher reads, validated once at start (see apps/webhook-dispatcher/README.md). */
export interface WebhookDispatcherConfig {
  /** Delay before the second attempt; later delays double (`WEBHOOK_BACKOFF_BASE_MS`, default 30000). */
  backoffBaseMs: number;
  /** Largest delay between two attempts before jitter (`WEBHOOK_BACKOFF_MAX_MS`, default 600000). */
  backoffMaxMs: number;
  /** Bound on one whole attempt: DNS, connect, TLS, request and the receiver's status line (`WEBHOOK_TIMEOUT_MS`, default 10000). */
  timeoutMs: number;
  /** Events handled at once by one dispatcher process (`WEBHOOK_CONCURRENCY`, default 32). */
  concurrency: number;
  /** Attempts on the wire at once to one receiver host (`WEBHOOK_HOST_CONCURRENCY`, default 4). */
  hostConcurrency: number;
  /**
   * How long an attempt waits for one to the same receiver to end, to reuse its connection, before it opens one of
   * its own (`WEBHOOK_CONNECTION_REUSE_WAIT_MS`, default 250; 0: never waits; docs/adr/0075).
   */
  connectionReuseWaitMs: number;
  /** `WEBHOOK_ALLOWED_PRIVATE_HOSTS`: the only way around the public-address rule. */
  egress: EgressPolicy;
  /**
   * `WEBHOOK_TEST_CA_FILE`, read only when `NODE_ENV=test`: a CA trusted for receivers on top of the system's,
   * for tests that run the dispatcher inside the test process. Node reads its own `NODE_EXTRA_CA_CERTS` (the
   * documented way, for a deployed dispatcher) only when a process starts, so in-process tests cannot use it.
   */
  testExtraCa: string | undefined;
  /** A run of failures disables the endpoint once it has lasted this long (`WEBHOOK_DISABLE_AFTER_MS`, default 5 days)... */
  disableAfterMs: number;
  /** ...and counts at least this many failed attempts (`WEBHOOK_DISABLE_MIN_FAILURES`, default 10). */
  disableMinFailures: number;
  /** The longest `Retry-After` of a 429 or 503 honoured (`WEBHOOK_RETRY_AFTER_MAX_MS`, default 1 hour). */
  retryAfterMaxMs: number;
  /** How often redeliveries and recoveries due are looked for (`WEBHOOK_SWEEP_INTERVAL_MS`, default 1000). */
  sweepIntervalMs: number;
  /** How long JetStream waits for the verdict on a message before handing it out again (derived). */
  ackWaitMs: number;
  /** How long an attempt on the wire keeps other workers off its event (derived). */
  leaseMs: number;
}

/** Slack for database round trips on top of the bounded parts of handling one event. */
const MARGIN_MS = 10_000;

export function loadWebhookDispatcherConfig(env: NodeJS.ProcessEnv = process.env): WebhookDispatcherConfig {
  const backoffBaseMs = envIntAtLeast(env, 'WEBHOOK_BACKOFF_BASE_MS', V.WEBHOOK_BACKOFF_BASE_MS.default, 1);
  const backoffMaxMs = envIntAtLeast(env, 'WEBHOOK_BACKOFF_MAX_MS', V.WEBHOOK_BACKOFF_MAX_MS.default, 1);
  if (backoffMaxMs < backoffBaseMs)
    throw new ConfigError('WEBHOOK_BACKOFF_MAX_MS must be at least WEBHOOK_BACKOFF_BASE_MS');
  const timeoutMs = envIntAtLeast(env, 'WEBHOOK_TIMEOUT_MS', V.WEBHOOK_TIMEOUT_MS.default, 100);
  const concurrency = envIntAtLeast(env, 'WEBHOOK_CONCURRENCY', V.WEBHOOK_CONCURRENCY.default, 1);
  const hostConcurrency = envIntAtLeast(env, 'WEBHOOK_HOST_CONCURRENCY', V.WEBHOOK_HOST_CONCURRENCY.default, 1);
  const connectionReuseWaitMs = envIntBetween(
    env,
    'WEBHOOK_CONNECTION_REUSE_WAIT_MS',
    V.WEBHOOK_CONNECTION_REUSE_WAIT_MS.default,
    0,
    10_000,
  );
  const sweepIntervalMs = envIntAtLeast(env, 'WEBHOOK_SWEEP_INTERVAL_MS', V.WEBHOOK_SWEEP_INTERVAL_MS.default, 10);
  const disableAfterMs = envIntAtLeast(env, 'WEBHOOK_DISABLE_AFTER_MS', V.WEBHOOK_DISABLE_AFTER_MS.default, 0);
  const disableMinFailures = envIntAtLeast(
    env,
    'WEBHOOK_DISABLE_MIN_FAILURES',
    V.WEBHOOK_DISABLE_MIN_FAILURES.default,
    1,
  );
  const retryAfterMaxMs = envIntAtLeast(env, 'WEBHOOK_RETRY_AFTER_MAX_MS', V.WEBHOOK_RETRY_AFTER_MAX_MS.default, 0);
  const { requestTimeoutMs } = messagingConfigFromEnv(env);
  const caFile = env.WEBHOOK_TEST_CA_FILE?.trim();
  if (caFile && env.NODE_ENV !== 'test')
    throw new ConfigError('WEBHOOK_TEST_CA_FILE is for tests only (NODE_ENV=test); use NODE_EXTRA_CA_CERTS');
  return {
    backoffBaseMs,
    backoffMaxMs,
    timeoutMs,
    concurrency,
    hostConcurrency: Math.min(hostConcurrency, concurrency),
    connectionReuseWaitMs,
    egress: egressPolicyFromEnv(env),
    testExtraCa: caFile ? readCa(caFile) : undefined,
    sweepIntervalMs,
    disableAfterMs,
    disableMinFailures,
    retryAfterMaxMs,
    // Handling one event is: a target lookup over NATS, the wait to reuse a connection, then one attempt; all bounded.
    ackWaitMs: requestTimeoutMs + connectionReuseWaitMs + timeoutMs + MARGIN_MS,
    leaseMs: timeoutMs + MARGIN_MS,
  };
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`WEBHOOK_TEST_CA_FILE: cannot read ${file} (${(error as Error).message})`);
  }
}
