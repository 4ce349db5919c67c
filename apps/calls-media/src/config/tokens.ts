/** calls-media's `CallsMediaConfig`, loaded once at start. */
export const CALLS_MEDIA_CONFIG = Symbol('CALLS_MEDIA_CONFIG');
