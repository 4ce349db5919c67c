// The DTOs' decorators (class-validator, class-transformer) read TypeScript's design types: reflect-metadata first.
import 'reflect-metadata';
export * from './errors';
export * from './messaging';
export * from './common';
export * from './health';
export * from './accounts';
export * from './numbers';
export * from './api-keys';
export * from './lostfound';
export * from './calls';
export * from './webhooks';
export * from './billing';
export * from './provider';
export * from './console';
export * from './webhook-copies';
export * from './dead-letters';
