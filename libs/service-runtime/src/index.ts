export * from './env';
export * from './readiness';
export * from './health-server';
export * from './service-runner';
export * from './polling-worker';
export * from './outbox-relay';
export * from './messaging-env';
export * from './env-variables';
