/** lostfound's `LostfoundConfig`, loaded once at start. */
export const LOSTFOUND_CONFIG = Symbol('LOSTFOUND_CONFIG');
