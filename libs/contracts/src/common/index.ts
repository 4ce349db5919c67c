export * from './validation';
export * from './pagination';
export * from './phone';
export * from './validation-messages';
export * from './api-property';
export * from './display';
