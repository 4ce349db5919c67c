// What the public and operator surfaces use of auth; config, http and api-keys import the leaf files they need so
// that loading them does not load the guards.
export * from './admin-token.guard';
export * from './api-key.guard';
export * from './caller.decorator';
export * from './rate-limiter';
export * from './request-auth.repository';
export * from './request-authenticator';
