export * from './api-key.dto';
