/** calls-media's `CallsMediaConfig`, loaded once at start. */
export const CALLS_MEDIA_CONFIG = Symbol('CALLS_MEDIA_CONFIG');

/** The `SqlPool` (libs/persistence) for the calls list, the statement behind every `GET /v1/calls`. */
export const CALLS_SQL = Symbol('CALLS_SQL');

/**
 * The `SqlPool` for the statements of every call report: the number's owners read, and the report stored with its
 * call and outbox row. Apart from the calls list's, so a burst of reports never queues the API's reads.
 */
export const REPORTS_SQL = Symbol('REPORTS_SQL');
