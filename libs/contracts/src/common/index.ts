export * from './validation';
export * from './pagination';
export * from './phone';
