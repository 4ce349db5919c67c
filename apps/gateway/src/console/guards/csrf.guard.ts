import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config/gateway.config';
import { GATEWAY_CONFIG } from '../../config/tokens';
import { sameSecret } from '../identity/secrets';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * A browser sends `Origin` on every cross-site request and every non-GET one: when present it must be the console's
 * own origin, `CONSOLE_URL`'s or the one this request was addressed to (scheme and Host), so a console reached as
 * http://localhost:3000 works as well as through 127.0.0.1. `Origin: null` (sandboxed frames, some redirects) is refused.
 */
export function originAllowed(request: FastifyRequest, consoleOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === consoleOrigin) return true;
  const host = request.headers.host;
  return host !== undefined && origin === `${request.protocol}://${host}`;
}

export const CSRF_FAILED =
  'This change needs the X-CSRF-Token header of your session (from sign-in or GET /console/api/session), sent from the console itself.';
const WRONG_ORIGIN = "This request comes from another site (its Origin is not the console's); it was refused.";

/** Refuses a state-changing request whose Origin is another site's (sign-in, invite acceptance: no session yet). */
@Injectable()
export class ConsoleOriginGuard implements CanActivate {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!isSafeMethod(request.method) && !originAllowed(request, this.config.console.origin))
      throw new ServiceError('csrf_failed', WRONG_ORIGIN);
    return true;
  }
}

/**
 * Behind SessionGuard: every POST, PUT, PATCH and DELETE carries `X-CSRF-Token` equal to the session's token (an
 * HMAC of the session secret, so bound to this session) and, when sent, an Origin of the console's own; otherwise
 * 403 `csrf_failed` and nothing changes. SameSite=Strict already keeps the cookie off other sites' requests; this is
 * the second, independent lock (docs/adr/0066).
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (isSafeMethod(request.method)) return true;
    if (!originAllowed(request, this.config.console.origin)) throw new ServiceError('csrf_failed', WRONG_ORIGIN);
    const sent = request.headers['x-csrf-token'];
    const expected = request.consoleSession?.csrfToken;
    if (typeof sent !== 'string' || !expected || !sameSecret(sent, expected))
      throw new ServiceError('csrf_failed', CSRF_FAILED);
    return true;
  }
}
