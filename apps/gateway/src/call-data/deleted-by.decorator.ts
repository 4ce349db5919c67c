import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * Who asks for a deletion, as calls-media records it on the call (docs/call-data.md): `key:<api key id>` on a public
 * route, `user:<console user id>` on a console route. Taken from the authenticated request, never from its body.
 */
export const DeletedBy = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  if (request.auth) return `key:${request.auth.keyId}`;
  if (request.consoleSession) return `user:${request.consoleSession.userId}`;
  throw new Error('DeletedBy on a route without an authenticated caller');
});
