import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/tokens';
import type { GatewayConfig } from '../config/gateway.config';
import type { WindowCount } from './request-auth.repository';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * 60 requests per 60 seconds per key (spec part 8), counted in fixed windows that start at a key's first
 * request (docs/adr/0002-api-keys-and-rate-limits.md); the count itself is kept in PostgreSQL by
 * RequestAuthRepository. Answers the IETF `RateLimit-*` fields and `Retry-After`.
 */
@Injectable()
export class RateLimiter {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  get windowSeconds(): number {
    return this.config.rateLimit.windowSeconds;
  }

  decide({ count, windowStart }: WindowCount, now = Date.now()): RateLimitDecision {
    const { limit, windowSeconds } = this.config.rateLimit;
    const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowSeconds * 1000 - now) / 1000));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
  }
}
