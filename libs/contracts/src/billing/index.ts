// Contracts of the billing domain: DTOs (class-validator + swagger), RPC descriptors, event descriptors.
export * from './billing.dto';
export * from './card-setup.dto';
export * from './billing.rpc';
export * from './billing.events';
