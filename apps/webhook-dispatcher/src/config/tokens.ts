export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');
export const DISPATCHER_LOGGER = Symbol('DISPATCHER_LOGGER');
/** The dispatcher's `SealingKeyPair` (config/webhook-sealing-key.ts). */
export const WEBHOOK_SEALING_KEY = Symbol('WEBHOOK_SEALING_KEY');
