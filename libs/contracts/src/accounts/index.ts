export * from './account.dto';
export * from './accounts.rpc';
export * from './account-mode';
export * from './livemode';
