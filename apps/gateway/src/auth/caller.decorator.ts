import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RpcCallOptions } from '@switchboard/messaging';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedKey } from './request-authenticator';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthenticatedKey;
    /**
     * The account of a signed-in console session, set by the console's SessionGuard (which keeps the whole session
     * in `consoleSession`): all `@Caller()` needs of it, so auth does not depend on the console.
     */
    sessionAccountId?: string;
  }
}

/** The RPC options a route forwards for its caller: the request id, and on a public route the caller's account. */
export interface CallerOptions extends RpcCallOptions {
  readonly accountId?: string;
  readonly requestId: string;
}

/**
 * The caller of a route as the services see it. Behind ApiKeyGuard (public routes) the services answer for the key's
 * account, and behind SessionGuard (console routes) for the session's: either way the options carry `accountId`, so
 * a console action meets the same tenant isolation as an API call. Operator routes act for no account and carry the
 * request id alone. A route that needs a different time-out spreads these options: `{ ...caller, timeoutMs }`.
 */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): CallerOptions =>
  callerOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

export function callerOf(request: FastifyRequest): CallerOptions {
  const requestId = String(request.id);
  const accountId = request.auth?.accountId ?? request.sessionAccountId;
  return accountId ? { accountId, requestId } : { requestId };
}
