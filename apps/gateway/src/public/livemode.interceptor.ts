import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { isTestAccount, withLivemode } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';

/**
 * `livemode` on every object the public API answers with an API key (docs/adr/0087-test-mode.md; the rule in
 * libs/contracts livemode.ts).
 */
@Injectable()
export class LivemodeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const accountId = context.switchToHttp().getRequest<FastifyRequest>().auth?.accountId;
    if (accountId === undefined) return next.handle();
    const livemode = !isTestAccount(accountId);
    return next.handle().pipe(map((body) => withLivemode(body, livemode)));
  }
}
