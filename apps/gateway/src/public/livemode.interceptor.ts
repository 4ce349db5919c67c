import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { isTestAccount } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';

/**
 * `livemode` on every object the public API answers with an API key (docs/adr/0087-test-mode.md): `false` for a
 * test key's, `true` for a live key's. The mode is the account's (a test key acts for the account's test twin), so
 * it is true of every object in the answer: the answer itself and each item of a list's `data`.
 */
@Injectable()
export class LivemodeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const accountId = context.switchToHttp().getRequest<FastifyRequest>().auth?.accountId;
    if (accountId === undefined) return next.handle();
    return next.handle().pipe(map((body) => livemodeAnswer(body, accountId)));
  }
}

/** The answer as an API key's request gets it. */
function livemodeAnswer(body: unknown, accountId: string | undefined): unknown {
  return accountId === undefined ? body : withLivemode(body, !isTestAccount(accountId));
}

/**
 * `livemode` set on the answer itself and on each object of its `data` list, for an answer that this request alone
 * holds (an RPC's reply, parsed for it): the same JSON as `withLivemode` without copying the list's objects, which
 * was 2-3% of the gateway's CPU on `GET /v1/calls` (docs/performance.md, sixteenth pass).
 */
export function markLivemode(body: unknown, accountId: string | undefined): unknown {
  if (accountId === undefined || !isPlainObject(body)) return body;
  const livemode = !isTestAccount(accountId);
  if (Array.isArray(body.data)) for (const item of body.data) if (isPlainObject(item)) item.livemode = livemode;
  body.livemode = livemode;
  return body;
}

/** The answer with `livemode` on it and on each object of its `data` list; anything else (bytes, none) as it is. */
export function withLivemode(body: unknown, livemode: boolean): unknown {
  if (!isPlainObject(body)) return body;
  const marked: Record<string, unknown> = { ...body, livemode };
  if (Array.isArray(body.data))
    marked.data = body.data.map((item: unknown) => (isPlainObject(item) ? { ...item, livemode } : item));
  return marked;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
