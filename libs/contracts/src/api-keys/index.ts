export * from './api-key.dto';
export * from './api-key-revocation';
