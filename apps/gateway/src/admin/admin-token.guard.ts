import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/api-key.guard';
import { GATEWAY_CONFIG } from '../config/tokens';
import type { GatewayConfig } from '../config/gateway.config';

/** Every operator route needs `Authorization: Bearer <ADMIN_TOKEN>` (operator contract). */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.expected = digest(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const token = bearerToken(context.switchToHttp().getRequest<FastifyRequest>().headers.authorization);
    // Compare digests so the comparison takes the same time whatever the length of what was sent.
    if (token && timingSafeEqual(digest(token), this.expected)) return true;
    throw new ServiceError('unauthorized', 'The operator API needs Authorization: Bearer <ADMIN_TOKEN>.');
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
