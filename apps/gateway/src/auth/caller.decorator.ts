import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RpcCallOptions } from '@switchboard/messaging';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedKey } from './request-authenticator';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthenticatedKey;
  }
}

/** The RPC options a route forwards for its caller: the request id, and on a public route the caller's account. */
export interface CallerOptions extends RpcCallOptions {
  readonly accountId?: string;
  readonly requestId: string;
}

/**
 * The caller of a route as the services see it. Behind ApiKeyGuard (public routes) the services answer for the key's
 * account, so the options carry `accountId`; operator routes act for no account and carry the request id alone.
 * A route that needs a different time-out spreads these options: `{ ...caller, timeoutMs }`.
 */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): CallerOptions => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  const requestId = String(request.id);
  return request.auth ? { accountId: request.auth.accountId, requestId } : { requestId };
});
