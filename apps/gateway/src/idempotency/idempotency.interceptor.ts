import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { callerOf } from '../auth/caller.decorator';
import { IdempotencyService } from './idempotency.service';

export const IDEMPOTENT_ROUTE = 'switchboard:idempotent-route';

/** The header that marks an answer replayed for an `Idempotency-Key` (as Stripe's API does). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export interface IdempotentRouteOptions {
  /**
   * Fields of the answer never stored by the gateway (secrets). On a replay the route's handler runs again, with
   * the same `Idempotency-Key` forwarded, and the owning service (which deduplicates on that key) answers them; the
   * rest of the answer is the stored first one.
   */
  secretFields?: string[];
}

/**
 * Runs a route marked `@Idempotent()` through `IdempotencyService` when the request carries `Idempotency-Key`:
 * the key is bound to the method, the request target and the JSON body as sent. A request without the header
 * runs as it is.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const key = request.headers['idempotency-key'];
    if (key === undefined) return next.handle();
    // An API key's or a console session's account, or on the claimant page (no key) the client address ClaimantGuard counted.
    const scope = callerOf(request).accountId ?? request.claimantScope;
    if (!scope) throw new Error('@Idempotent() used on a route without ApiKeyGuard, SessionGuard or ClaimantGuard');
    const reply = http.getResponse<FastifyReply>();
    const options =
      this.reflector.get<IdempotentRouteOptions | undefined>(IDEMPOTENT_ROUTE, context.getHandler()) ?? {};
    const status =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      (request.method === 'POST' ? 201 : 200);
    const run = () => lastValueFrom(next.handle()) as Promise<Record<string, unknown>>;
    const secretFields = options.secretFields ?? [];
    return from(
      this.idempotency.execute<Record<string, unknown>>(
        {
          accountId: scope,
          key: Array.isArray(key) ? key.join(', ') : key,
          method: request.method,
          path: request.url,
          body: request.body ?? {},
        },
        {
          status,
          run,
          secretFields,
          restore:
            secretFields.length > 0 ? async (stored) => ({ ...stored, ...pick(await run(), secretFields) }) : undefined,
          onReplay: () => void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true'),
        },
      ),
    );
  }
}

function pick(answer: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => field in answer).map((field) => [field, answer[field]]));
}
