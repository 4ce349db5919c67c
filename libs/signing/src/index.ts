export * from './signing';
export * from './call-completed.webhook';
export * from './standard-webhooks';
export * from './explain';
