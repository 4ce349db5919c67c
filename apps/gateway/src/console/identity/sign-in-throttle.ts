import { Injectable } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import { sql, type Selectable } from 'kysely';
import type { SignInThrottle as SignInThrottleTable } from '../../generated/kysely/database';
import { GatewayPrisma, GatewayTransactions } from '../../prisma/gateway-prisma';

/**
 * Failed sign-ins are counted in fixed 15-minute windows, per email address and per client address (docs/adr/0066):
 * 5 failures for one address stop a guesser at 20 guesses an hour per account; 20 per client address slow one
 * client spraying many addresses, without locking a whole office out because one person mistyped.
 */
export const SIGN_IN_THROTTLE = {
  windowSeconds: 15 * 60,
  maxFailuresPerEmail: 5,
  maxFailuresPerClient: 20,
} as const;

/**
 * Password reset requests (docs/adr/0066), counted in the same table and windows: every request counts. Per client
 * address as many as sign-in allows failures (20 per 15 minutes), then 429 `rate_limited`; per email address 3 mails
 * per window, after which requests are still answered the same but mail nothing (no mailbox flooding, no 429 that
 * would tell which addresses have users or let someone block another person's reset).
 */
export const PASSWORD_RESET_THROTTLE = {
  windowSeconds: SIGN_IN_THROTTLE.windowSeconds,
  maxRequestsPerClient: SIGN_IN_THROTTLE.maxFailuresPerClient,
  maxMailsPerEmail: 3,
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
    `Too many failed sign-ins for this email address or from this network; try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or choose a new password with "Forgot your password?" on the sign-in page.`,
    seconds,
  );
}

/** One sign-in attempt taken from both windows: counted as a failure unless `succeeded` gives it back. */
export interface SignInAttempt {
  email: string;
  ip: string;
  /** When the client's window that holds this attempt began: a later window owes it nothing. */
  clientWindowStart: Date;
}

/**
 * Taking an attempt locks two rows and may wait behind concurrent sign-ins for the same address or client: a burst
 * of parallel guesses queues here, one short transaction each, rather than failing after Prisma's default 2 s.
 */
const TAKE_TX = { maxWait: 10_000, timeout: 10_000 } as const;

/**
 * The windows, kept in the gateway's database so every replica counts the same attempts (docs/adr/0066). An attempt
 * is taken, and counted, before the password is checked, in one transaction that holds both windows' rows: N
 * parallel guesses are limited exactly as N one after another, whichever replica answers them.
 */
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly prisma: GatewayPrisma,
    private readonly transactions: GatewayTransactions,
  ) {}

  /**
   * Takes one attempt for the address and the client, counting it as a failure in both windows, or refuses
   * (429 sign_in_throttled, Retry-After) when either has used up its failures; a refused attempt counts nowhere.
   * The upsert locks the email's row, then the client's (always in that order, so two sign-ins cannot deadlock),
   * restarting a window that has ended; the limits are read and the count raised while both rows stay locked.
   */
  async take(email: string, ip: string): Promise<SignInAttempt> {
    const scopes = [emailScope(email), clientScope(ip)] as const;
    const seconds = SIGN_IN_THROTTLE.windowSeconds;
    return this.transactions.run(async (tx) => {
      const windows = (
        await sql<ThrottleWindow & { checked_at: Date }>`
        INSERT INTO sign_in_throttles AS t (scope, window_start, failures) VALUES (${scopes[0]}, now(), 0), (${scopes[1]}, now(), 0)
        ON CONFLICT (scope) DO UPDATE SET
          window_start = CASE WHEN t.window_start <= now() - make_interval(secs => ${seconds}) THEN now() ELSE t.window_start END,
          failures     = CASE WHEN t.window_start <= now() - make_interval(secs => ${seconds}) THEN 0 ELSE t.failures END
        RETURNING t.scope, t.window_start, t.failures, now() AS checked_at`.execute(tx.$kysely())
      ).rows;
      // The database's clock, as the upsert used it: every window returned is current by that clock.
      const wait = throttledForSeconds(windows, windows[0].checked_at.getTime());
      if (wait > 0) throw throttledError(wait);
      await sql`UPDATE sign_in_throttles SET failures = failures + 1 WHERE scope IN (${scopes[0]}, ${scopes[1]})`.execute(
        tx.$kysely(),
      );
      const client = windows.find((window) => window.scope === scopes[1]);
      return { email, ip, clientWindowStart: client!.window_start };
    }, TAKE_TX);
  }

  /**
   * Counts a password reset request for the client and the address, or refuses it (429 `rate_limited`, Retry-After)
   * when the client has used up its requests; a refused request counts nowhere. Answers whether the address may still
   * be mailed in this window. Locks the email's row, then the client's, as `take` does.
   */
  async takePasswordReset(email: string, ip: string): Promise<{ mayMail: boolean }> {
    const scopes = [`reset-email:${email.toLowerCase()}`, `reset-ip:${ip}`] as const;
    const seconds = PASSWORD_RESET_THROTTLE.windowSeconds;
    return this.transactions.run(async (tx) => {
      const windows = (
        await sql<ThrottleWindow & { checked_at: Date }>`
        INSERT INTO sign_in_throttles AS t (scope, window_start, failures) VALUES (${scopes[0]}, now(), 0), (${scopes[1]}, now(), 0)
        ON CONFLICT (scope) DO UPDATE SET
          window_start = CASE WHEN t.window_start <= now() - make_interval(secs => ${seconds}) THEN now() ELSE t.window_start END,
          failures     = CASE WHEN t.window_start <= now() - make_interval(secs => ${seconds}) THEN 0 ELSE t.failures END
        RETURNING t.scope, t.window_start, t.failures, now() AS checked_at`.execute(tx.$kysely())
      ).rows;
      const client = windows.find((window) => window.scope === scopes[1])!;
      const address = windows.find((window) => window.scope === scopes[0])!;
      if (client.failures >= PASSWORD_RESET_THROTTLE.maxRequestsPerClient) {
        const wait = Math.max(
          1,
          Math.ceil((client.window_start.getTime() + seconds * 1000 - client.checked_at.getTime()) / 1000),
        );
        const minutes = Math.ceil(wait / 60);
        throw new ServiceError(
          'rate_limited',
          `Too many password reset requests from this network; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          wait,
        );
      }
      await sql`UPDATE sign_in_throttles SET failures = failures + 1 WHERE scope IN (${scopes[0]}, ${scopes[1]})`.execute(
        tx.$kysely(),
      );
      return { mayMail: address.failures < PASSWORD_RESET_THROTTLE.maxMailsPerEmail };
    }, TAKE_TX);
  }

  /**
   * The password was right: the address's failures are forgotten (its row deleted); the client's window gets this
   * attempt back but keeps its failures (one right password must not reopen a spray); windows that have ended are
   * deleted, so the table holds only the last 15 minutes'. Each statement locks one row or skips locked ones, so
   * none can deadlock with `take`.
   */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await this.prisma.signInThrottle.deleteMany({ where: { scope: emailScope(attempt.email) } });
    await sql`
      UPDATE sign_in_throttles SET failures = failures - 1
      WHERE scope = ${clientScope(attempt.ip)} AND window_start = ${attempt.clientWindowStart} AND failures > 0`.execute(
      this.prisma.$kysely(),
    );
    const ended = sql`now() - make_interval(secs => ${SIGN_IN_THROTTLE.windowSeconds})`;
    await sql`
      DELETE FROM sign_in_throttles WHERE window_start <= ${ended} AND scope IN (
        SELECT scope FROM sign_in_throttles WHERE window_start <= ${ended} FOR UPDATE SKIP LOCKED)`.execute(
      this.prisma.$kysely(),
    );
  }
}
