import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedKey } from './request-authenticator';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthenticatedKey;
  }
}

export interface Caller {
  accountId: string;
  keyId: string;
  requestId: string;
}

/** The authenticated caller of a public route (set by ApiKeyGuard). */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  if (!request.auth) throw new Error('CurrentCaller used on a route without ApiKeyGuard');
  return { accountId: request.auth.accountId, keyId: request.auth.keyId, requestId: String(request.id) };
});

export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string =>
  String(ctx.switchToHttp().getRequest<FastifyRequest>().id),
);
