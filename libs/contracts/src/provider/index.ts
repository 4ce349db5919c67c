// Contracts of the provider domain: operator controls of the simulated telephony provider.
export * from './provider.dto';
export * from './provider.rpc';
