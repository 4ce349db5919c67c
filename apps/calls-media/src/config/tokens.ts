/** The app's pino logger (the one given to `createCallsMediaApp`). */
export const CALLS_MEDIA_LOGGER = Symbol('CALLS_MEDIA_LOGGER');
