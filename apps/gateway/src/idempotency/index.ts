export * from './idempotency.repository';
export * from './idempotency.service';
