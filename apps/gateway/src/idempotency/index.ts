import type { Provider } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

export * from './idempotency.repository';
export * from './idempotency.service';
export * from './idempotency.interceptor';
export * from './idempotent.decorator';

/** What `@Idempotent()` routes need, whichever feature they belong to. */
export const IDEMPOTENCY_PROVIDERS: Provider[] = [IdempotencyRepository, IdempotencyService, IdempotencyInterceptor];
