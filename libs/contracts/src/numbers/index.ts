export * from './number.dto';
export * from './numbers.rpc';
export * from './number.events';
export * from './webhook-target.rpc';
export * from './agent.dto';
export * from './agent.rpc';
export * from './analysis-field.dto';
