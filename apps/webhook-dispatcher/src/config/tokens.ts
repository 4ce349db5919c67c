export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');
export const DISPATCHER_LOGGER = Symbol('DISPATCHER_LOGGER');
/** This dispatcher process's `SealingKeyPair`: webhook secrets come to it sealed for this key. */
export const SEALING_KEY_PAIR = Symbol('SEALING_KEY_PAIR');
