export * from './location.dto';
export * from './lostfound-validation';
export * from './found-item.dto';
export * from './claim.dto';
export * from './sms.dto';
export * from './lostfound.rpc';
export * from './lostfound.events';
