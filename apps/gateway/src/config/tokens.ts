export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
/** The `SqlPool` (libs/persistence) for the statements run on every authenticated request. */
export const AUTH_SQL = Symbol('AUTH_SQL');
