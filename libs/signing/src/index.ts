export * from './signing';
export * from './call-completed.webhook';
