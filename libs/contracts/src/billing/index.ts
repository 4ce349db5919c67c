// Contracts of the billing domain: DTOs (class-validator + swagger), RPC descriptors, event descriptors.
export {};
