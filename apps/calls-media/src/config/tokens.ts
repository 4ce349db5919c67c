/** calls-media's `CallsMediaConfig`, loaded once at start. */
export const CALLS_MEDIA_CONFIG = Symbol('CALLS_MEDIA_CONFIG');

/** The `SqlPool` (libs/persistence) for the calls list, the statement behind every `GET /v1/calls`. */
export const CALLS_SQL = Symbol('CALLS_SQL');
