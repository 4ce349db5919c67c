import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from './api-key.guard';
import { GATEWAY_CONFIG } from '../config/tokens';
import type { GatewayConfig } from '../config/gateway.config';

/**
 * Every operator route needs `Authorization: Bearer <ADMIN_TOKEN>` (operator contract). During a rotation
 * `ADMIN_TOKEN_PREVIOUS` is accepted too, so callers can move over while gateway replicas roll.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly accepted: Buffer[];

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.accepted = [config.adminToken, config.previousAdminToken].filter((t): t is string => Boolean(t)).map(digest);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(request.headers.authorization);
    // Compare digests so the comparison takes the same time whatever the length of what was sent; try every
    // accepted token so the time does not tell which one matched.
    const sent = token ? digest(token) : undefined;
    const matches = sent ? this.accepted.map((expected) => timingSafeEqual(sent, expected)) : [];
    if (matches.includes(true)) return true;
    throw new ServiceError('unauthorized', 'The operator API needs Authorization: Bearer <ADMIN_TOKEN>.');
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
