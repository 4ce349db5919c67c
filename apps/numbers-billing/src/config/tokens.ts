export const NUMBERS_BILLING_CONFIG = Symbol('NUMBERS_BILLING_CONFIG');

/**
 * The `SqlPool` (libs/persistence) for the reads behind every request of their kind: the numbers list
 * (`GET /v1/numbers`) and the webhook target (every delivery).
 */
export const NUMBERS_SQL = Symbol('NUMBERS_SQL');

/** The `SqlPool` (libs/persistence) for talk time's charge of each completed call (a transaction per call). */
export const TALK_TIME_SQL = Symbol('TALK_TIME_SQL');
