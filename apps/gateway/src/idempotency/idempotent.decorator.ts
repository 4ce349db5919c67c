import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor, IDEMPOTENT_ROUTE, type IdempotentRouteOptions } from './idempotency.interceptor';

/**
 * Marks a public write route (every POST and PATCH) as accepting `Idempotency-Key`: a retry with the same key,
 * method, path and body answers the first result with `Idempotent-Replayed: true`; the same key with another
 * request is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_key_in_use`
 * (docs/adr/0056-idempotency-key-on-every-public-write.md). Also documents the header in the OpenAPI description.
 */
export function Idempotent(options: IdempotentRouteOptions = {}): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, options),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        '1 to 255 visible ASCII characters, unique per request you mean. A retry with the same key and body within 24 hours ' +
        'answers the first result again, marked `Idempotent-Replayed: true`, without doing the work twice; the same key ' +
        'with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_key_in_use`.',
    }),
  );
}
