export const NUMBERS_BILLING_CONFIG = Symbol('NUMBERS_BILLING_CONFIG');

/**
 * The `SqlPool` (libs/persistence) for the reads behind every request of their kind: the numbers list
 * (`GET /v1/numbers`) and the webhook target (every delivery).
 */
export const NUMBERS_SQL = Symbol('NUMBERS_SQL');
