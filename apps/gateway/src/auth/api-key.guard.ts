import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestAuthenticator } from './request-authenticator';

const INVALID_KEY = 'A valid API key is required: send Authorization: Bearer <key>.';

/**
 * Spec part 5: `Authorization: Bearer <key>` only (the scheme in any case); a missing, malformed, unknown or revoked key and a key used
 * from an address outside its allowlist all get the same 401. Then the key's rate limit (spec part 8).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly authenticator: RequestAuthenticator) {}

  /** Sets `request.auth` and the `RateLimit-*` headers, or throws the 401 or 429 `ServiceError`. */
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const secret = bearerToken(request.headers.authorization);
    const caller = secret ? await this.authenticator.authenticate(secret, request.ip) : undefined;
    if (!caller) throw new ServiceError('unauthorized', INVALID_KEY);

    const decision = caller.rateLimit;
    void reply.header('RateLimit-Limit', decision.limit);
    void reply.header('RateLimit-Remaining', decision.remaining);
    void reply.header('RateLimit-Reset', decision.resetSeconds);
    if (!decision.allowed) {
      void reply.header('Retry-After', decision.resetSeconds);
      throw new ServiceError(
        'rate_limited',
        `Rate limit of ${decision.limit} requests per window exceeded; retry in ${decision.resetSeconds} s.`,
      );
    }
    request.auth = caller.key;
    return true;
  }
}

/**
 * The credentials of a `Bearer` authorization header. The scheme name is case-insensitive and may be followed by
 * more than one space (RFC 9110 section 11.1, `auth-scheme 1*SP token68`): many clients send `bearer`.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +([^\s]+)$/i.exec(header.trim());
  return match?.[1];
}
