import { Injectable } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import { sqlExecute } from '@switchboard/persistence';
import { sql, type Selectable } from 'kysely';
import type { SignInThrottle as SignInThrottleTable } from '../../generated/kysely/database';
import { GatewayPrisma } from '../../prisma/gateway-prisma';

/**
 * Failed sign-ins are counted in fixed 15-minute windows, per email address and per client address (docs/adr/0067):
 * 5 failures for one address stop a guesser at 20 guesses an hour per account; 20 per client address slow one
 * client spraying many addresses, without locking a whole office out because one person mistyped.
 */
export const SIGN_IN_THROTTLE = {
  windowSeconds: 15 * 60,
  maxFailuresPerEmail: 5,
  maxFailuresPerClient: 20,
} as const;

export type ThrottleWindow = Selectable<SignInThrottleTable>;

export function emailScope(email: string): string {
  return `email:${email.toLowerCase()}`;
}

export function clientScope(ip: string): string {
  return `ip:${ip}`;
}

/**
 * Seconds until sign-in is allowed again for these windows (the longest wait), or 0 when it is allowed: a window
 * that has reached its scope's limit blocks until it ends.
 */
export function throttledForSeconds(
  windows: readonly ThrottleWindow[],
  now: number,
  policy = SIGN_IN_THROTTLE,
): number {
  let wait = 0;
  for (const window of windows) {
    const limit = window.scope.startsWith('email:') ? policy.maxFailuresPerEmail : policy.maxFailuresPerClient;
    const endsIn = Math.ceil((window.window_start.getTime() + policy.windowSeconds * 1000 - now) / 1000);
    if (window.failures >= limit && endsIn > 0) wait = Math.max(wait, endsIn);
  }
  return wait;
}

export function throttledError(seconds: number): ServiceError {
  const minutes = Math.ceil(seconds / 60);
  return new ServiceError(
    'sign_in_throttled',
    `Too many failed sign-ins for this email address or from this network; try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or reset your password with an owner of your account.`,
    seconds,
  );
}

/** The windows, kept in the gateway's database so every replica counts the same failures. */
@Injectable()
export class SignInThrottle {
  constructor(private readonly prisma: GatewayPrisma) {}

  /** Refuses (429 sign_in_throttled, Retry-After) when either scope has used up its failures. */
  async check(email: string, ip: string): Promise<void> {
    const windows = await this.prisma.signInThrottle.findMany({
      where: { scope: { in: [emailScope(email), clientScope(ip)] } },
    });
    const wait = throttledForSeconds(windows, Date.now());
    if (wait > 0) throw throttledError(wait);
  }

  /** Counts one failure in both scopes: one atomic upsert each, a stale window restarting at 1. */
  async recordFailure(email: string, ip: string): Promise<void> {
    const seconds = SIGN_IN_THROTTLE.windowSeconds;
    for (const scope of [emailScope(email), clientScope(ip)]) {
      await sqlExecute(
        this.prisma,
        sql`
        INSERT INTO sign_in_throttles AS t (scope, window_start, failures) VALUES (${scope}, now(), 1)
        ON CONFLICT (scope) DO UPDATE SET
          window_start = CASE WHEN t.window_start <= now() - make_interval(secs => ${seconds}) THEN now() ELSE t.window_start END,
          failures     = CASE WHEN t.window_start <= now() - make_interval(secs => ${seconds}) THEN 1 ELSE t.failures + 1 END`,
      );
    }
  }

  /**
   * A successful sign-in forgets the address's failures (not the client's: one right password must not reopen a
   * spray), and every window that has ended, so the table holds only the last 15 minutes' failures.
   */
  async clear(email: string): Promise<void> {
    const ended = new Date(Date.now() - SIGN_IN_THROTTLE.windowSeconds * 1000);
    await this.prisma.signInThrottle.deleteMany({
      where: { OR: [{ scope: emailScope(email) }, { window_start: { lte: ended } }] },
    });
  }
}
