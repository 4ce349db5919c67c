import { Injectable } from '@nestjs/common';
import { hashSecret, looksLikeKey, sameHash } from './api-key-secret';
import { RateLimiter, type RateLimitDecision } from './rate-limiter';
import { isAllowed } from './ip-allowlist';
import { LAST_USED_RESOLUTION_SECONDS, RequestAuthRepository } from './request-auth.repository';

export interface AuthenticatedKey {
  keyId: string;
  accountId: string;
}

/**
 * Who is calling, and whether their key's rate limit lets the request through: spec parts 5 and 8 for every
 * public request, in one database round trip for a key without an IP allowlist (two with one).
 */
@Injectable()
export class RequestAuthenticator {
  constructor(
    private readonly repository: RequestAuthRepository,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * The key behind a bearer secret and its rate-limit decision, or `undefined` when the secret is malformed,
   * unknown, revoked or used from an address outside the key's allowlist: every failure alike, so callers answer
   * them all with the same 401 (spec part 5.4). Requests refused that way are not counted against the key.
   */
  async authenticate(
    secret: string,
    clientIp: string,
  ): Promise<{ key: AuthenticatedKey; rateLimit: RateLimitDecision } | undefined> {
    if (!looksLikeKey(secret)) return undefined;
    const hash = hashSecret(secret);
    const windowSeconds = this.limiter.windowSeconds;
    const found = await this.repository.findKeyCountingRequest(hash, windowSeconds);
    if (!found || !sameHash(found.key.secret_hash, hash)) return undefined;
    if (!isAllowed(found.key.ip_allowlist, clientIp)) return undefined;
    const window = found.window ?? (await this.repository.countRequest(found.key.id, windowSeconds));
    this.noteUse(found.key.id, found.key.last_used_at);
    return { key: { keyId: found.key.id, accountId: found.key.account_id }, rateLimit: this.limiter.decide(window) };
  }

  /**
   * `last_used_at` for the console, without a write per request: only when the value read with the key is older than
   * a minute, and off the response path (not awaited; a lost update only leaves the time a minute staler).
   */
  private noteUse(keyId: string, lastUsedAt: Date | null): void {
    if (lastUsedAt && Date.now() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_SECONDS * 1000) return;
    this.repository.touchLastUsed(keyId).catch(() => undefined);
  }
}
