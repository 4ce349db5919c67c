export * from './system';
export * from './session';
export * from './outages';
export * from './service-process';
export * from './console';
export * from './wait-for';
export * from './sse';
