export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');
/** This dispatcher process's `SealingKeyPair`: webhook secrets come to it sealed for this key. */
export const SEALING_KEY_PAIR = Symbol('SEALING_KEY_PAIR');
/**
 * The `SqlPool` (libs/persistence) for the statements every delivery attempt makes: its claim, its outcome and the
 * receiver host's shared slot (taken and given back). Prepared once per connection, without Prisma's machinery.
 */
export const DELIVERY_SQL = Symbol('DELIVERY_SQL');
