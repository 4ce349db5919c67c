export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');
/** This dispatcher process's `SealingKeyPair`: webhook secrets come to it sealed for this key. */
export const SEALING_KEY_PAIR = Symbol('SEALING_KEY_PAIR');
