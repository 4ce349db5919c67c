/** The app's pino logger (the one given to `createCallsMediaApp`). */
export const CALLS_MEDIA_LOGGER = Symbol('CALLS_MEDIA_LOGGER');

/** The `SqlPool` (libs/persistence) for the calls list, the statement behind every `GET /v1/calls`. */
export const CALLS_SQL = Symbol('CALLS_SQL');
