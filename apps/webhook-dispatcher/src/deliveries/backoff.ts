/** Upper bound of the random spread added to each delay, as a fraction of it. */
export const JITTER_FRACTION = 0.25;

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait after failed attempt `attempt` (1-based): `base * 2^(attempt-1)`, capped at `max`, plus up to 25%
 * random jitter so receivers that fail together are not retried together. Jitter only lengthens a delay:
 * `WEBHOOK_BACKOFF_BASE_MS` is the delay before the second attempt (operator contract), never less
 * (docs/adr/0075-webhook-delivery.md).
 */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt must be an integer >= 1');
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(exponential * (1 + JITTER_FRACTION * random()));
}
