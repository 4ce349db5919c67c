export * from './account.dto';
export * from './accounts.rpc';
