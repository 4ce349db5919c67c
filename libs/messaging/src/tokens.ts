export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const MESSAGING_CONFIG = Symbol('MESSAGING_CONFIG');
export const SERVICE_NAME = Symbol('SERVICE_NAME');
/** The process's `NatsLink`: the connection once there is one, and its real state. */
export const NATS_LINK = Symbol('NATS_LINK');
/** The `OutageLog` of a service's request handlers: one incident per outage, whichever handler met it. */
export const RPC_OUTAGES = Symbol('RPC_OUTAGES');
