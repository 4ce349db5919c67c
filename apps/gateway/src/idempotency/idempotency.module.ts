import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/**
 * `Idempotency-Key` on writes (docs/adr/0056): what a route marked `@Idempotent()` needs. Imported by the public API
 * and the console, which share one record of keys per account.
 */
@Module({
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyInterceptor],
  exports: [IdempotencyRepository, IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
