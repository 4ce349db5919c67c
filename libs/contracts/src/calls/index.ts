// Contracts of the calls domain: DTOs (class-validator + swagger), RPC descriptors, event descriptors.
export {};
