export * from './error-codes';
