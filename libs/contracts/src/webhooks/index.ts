// Contracts of the webhooks domain: DTOs (class-validator + swagger), RPC descriptors, event descriptors.
export * from './webhook-delivery.dto';
export * from './webhooks.rpc';
export * from './webhook-events.dto';
export * from './webhook.events';
export * from './webhook-bodies.dto';
