// Clients of outside providers' SDKs, configured from a service's environment: for production, or for a local
// stand-in of the provider's API (test/stand-ins/). The ports and adapters that use them live in the apps.
export * from './twilio-client';
