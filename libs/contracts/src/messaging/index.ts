export * from './rpc';
export * from './event';
export * from './headers';
