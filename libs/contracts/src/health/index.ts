export * from './health.rpc';
