export * from './idempotency.repository';
export * from './idempotency.service';
export * from './idempotency.interceptor';
export * from './idempotent.decorator';
export * from './idempotency.module';
