export * from './email.port';
export * from './simulated-email.adapter';
