export * from './call.events';
export * from './call.dto';
export * from './recording.dto';
export * from './provider-call.dto';
export * from './calls.rpc';
export * from './usage.dto';
