export * from './call.events';
