// Contracts of the provider domain: operator controls of the simulated telephony provider, and the verified
// webhooks of real providers as the gateway publishes them.
export * from './provider.dto';
export * from './provider.rpc';
export * from './provider-events';
