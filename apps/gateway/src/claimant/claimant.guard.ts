import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestAuthRepository } from '../auth/request-auth.repository';
import type { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../config/tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by ClaimantGuard: whom a claimant-page request is counted and its Idempotency-Key kept for. */
    claimantScope?: string;
  }
}

/**
 * The claimant page's routes have no key: each client address is limited instead (docs/adr/0079), counted in the
 * same PostgreSQL fixed windows as API keys (`rate_limit_windows`, under `ip:<address>`), so every gateway replica
 * shares the count. `request.ip` is the client as TRUSTED_PROXIES says (the proxy's address otherwise).
 */
@Injectable()
export class ClaimantGuard implements CanActivate {
  constructor(
    private readonly counts: RequestAuthRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { limit, windowSeconds } = this.config.claimantRateLimit;
    const scope = `ip:${request.ip}`;
    const window = await this.counts.countRequest(scope, windowSeconds);
    const resetSeconds = Math.max(
      1,
      Math.ceil((window.windowStart.getTime() + windowSeconds * 1000 - Date.now()) / 1000),
    );
    void reply.header('RateLimit-Limit', limit);
    void reply.header('RateLimit-Remaining', Math.max(0, limit - window.count));
    void reply.header('RateLimit-Reset', resetSeconds);
    if (window.count > limit) {
      void reply.header('Retry-After', resetSeconds);
      throw new ServiceError('rate_limited', `Too many requests from this address; try again in ${resetSeconds} s.`);
    }
    request.claimantScope = `claimant:${scope}`;
    return true;
  }
}
