export * from './number.dto';
export * from './numbers.rpc';
