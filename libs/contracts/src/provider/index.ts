// Contracts of the provider domain: DTOs (class-validator + swagger), RPC descriptors, event descriptors.
export {};
