export * from './logger';
export * from './nest-logger';
export * from './tracing';
export * from './metrics';
