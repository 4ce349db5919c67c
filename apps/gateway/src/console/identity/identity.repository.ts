import { Injectable } from '@nestjs/common';
import type { ApiKeyMode, ConsoleRole } from '@switchboard/contracts';
import { sql, type Selectable } from 'kysely';
import type { ConsoleInvite, ConsolePasswordReset, ConsoleSession, ConsoleUser } from '../../generated/kysely/database';
import { GatewayPrisma, GatewayTransactions } from '../../prisma/gateway-prisma';
import { SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS } from '../guards/session-cookie';
import { TEST_MODE_ROLES } from './console-session';

export type UserRecord = Pick<
  Selectable<ConsoleUser>,
  'id' | 'account_id' | 'email' | 'password_hash' | 'created_at'
> & { role: ConsoleRole };

export type InviteRecord = Pick<
  Selectable<ConsoleInvite>,
  'id' | 'account_id' | 'email' | 'created_at' | 'expires_at'
> & { role: ConsoleRole };

/** A live session with its user, as the session guard needs it. */
export type SessionRecord = Pick<Selectable<ConsoleSession>, 'token_hash' | 'user_id' | 'account_id' | 'last_seen_at'> &
  Pick<UserRecord, 'email' | 'role'> & { mode: ApiKeyMode };

/** A usable password reset and the user it is for. */
export type PasswordResetRecord = Pick<Selectable<ConsolePasswordReset>, 'id' | 'user_id' | 'expires_at'> &
  Pick<UserRecord, 'email' | 'account_id'>;

/** How long an idle session's last-seen time may lag: written at most once a minute, not on every request. */
export const SESSION_TOUCH_SECONDS = 60;

/** Users, invites and sessions of the console, in the gateway's database (docs/adr/0066). */
@Injectable()
export class IdentityRepository {
  constructor(
    private readonly prisma: GatewayPrisma,
    private readonly transactions: GatewayTransactions,
  ) {}

  async findUserByEmail(email: string): Promise<UserRecord | null> {
    return (await this.prisma.consoleUser.findUnique({ where: { email } })) as UserRecord | null;
  }

  async usersOf(accountId: string): Promise<UserRecord[]> {
    return (await this.prisma.consoleUser.findMany({
      where: { account_id: accountId },
      orderBy: { created_at: 'asc' },
    })) as UserRecord[];
  }

  async pendingInvitesOf(accountId: string): Promise<InviteRecord[]> {
    return (await this.prisma.consoleInvite.findMany({
      where: { account_id: accountId, accepted_at: null, revoked_at: null, expires_at: { gt: new Date() } },
      orderBy: { created_at: 'asc' },
    })) as InviteRecord[];
  }

  /**
   * A new invite; an earlier pending invite of the same address to the same account is withdrawn (its link stops
   * working), so only the newest link counts.
   */
  async createInvite(invite: InviteRecord & { token_hash: string; invited_by: string | null }): Promise<void> {
    await this.transactions.run(async (tx) => {
      await tx.consoleInvite.updateMany({
        where: { account_id: invite.account_id, email: invite.email, accepted_at: null, revoked_at: null },
        data: { revoked_at: new Date() },
      });
      await tx.consoleInvite.create({ data: invite });
    });
  }

  /** The pending, unexpired invite behind a token hash. */
  async findUsableInvite(tokenHash: string): Promise<InviteRecord | null> {
    return (await this.prisma.consoleInvite.findFirst({
      where: { token_hash: tokenHash, accepted_at: null, revoked_at: null, expires_at: { gt: new Date() } },
    })) as InviteRecord | null;
  }

  /**
   * Uses the invite and makes its user, in one transaction: the invite is marked accepted only if it still was
   * pending (a second, concurrent accept finds nothing), and the user is created only then. Null when the invite was
   * used meanwhile; 'taken' when the address became a user meanwhile.
   */
  async acceptInvite(tokenHash: string, user: Omit<UserRecord, 'created_at'>): Promise<UserRecord | null | 'taken'> {
    return this.transactions.run(async (tx) => {
      const used = await tx.consoleInvite.updateMany({
        where: { token_hash: tokenHash, accepted_at: null, revoked_at: null, expires_at: { gt: new Date() } },
        data: { accepted_at: new Date() },
      });
      if (used.count !== 1) return null;
      const inserted = await tx
        .$kysely()
        .insertInto('console_users')
        .values({
          id: user.id,
          account_id: user.account_id,
          email: user.email,
          role: user.role,
          password_hash: user.password_hash,
        })
        .onConflict((conflict) => conflict.column('email').doNothing())
        .returning(['id', 'account_id', 'email', 'role', 'password_hash', 'created_at'])
        .$narrowType<{ role: ConsoleRole }>()
        .execute();
      if (inserted.length === 0) {
        // Keep the invite usable: nothing was created.
        await tx.consoleInvite.updateMany({ where: { token_hash: tokenHash }, data: { accepted_at: null } });
        return 'taken';
      }
      return inserted[0];
    });
  }

  /** Withdraws a pending invite of the account; false when there is none by that id. */
  async revokeInvite(accountId: string, inviteId: string): Promise<boolean> {
    const result = await this.prisma.consoleInvite.updateMany({
      where: { id: inviteId, account_id: accountId, accepted_at: null, revoked_at: null },
      data: { revoked_at: new Date() },
    });
    return result.count === 1;
  }

  /**
   * Removes a user of the account and ends their sessions, unless they are its last owner. The per-account lock
   * makes the owner count and the removal one step: two owners removing each other at once leave one.
   */
  async removeUser(accountId: string, userId: string): Promise<'removed' | 'not_found' | 'last_owner'> {
    return this.transactions.run(async (tx) => {
      await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('console_users:' || ${accountId}))`.execute(tx.$kysely());
      const user = await tx.consoleUser.findFirst({ where: { id: userId, account_id: accountId } });
      if (!user) return 'not_found';
      if (user.role === 'owner') {
        const owners = await tx.consoleUser.count({ where: { account_id: accountId, role: 'owner' } });
        if (owners <= 1) return 'last_owner';
      }
      await tx.consoleSession.deleteMany({ where: { user_id: userId } });
      await tx.consoleUser.delete({ where: { id: userId } });
      return 'removed';
    });
  }

  /**
   * Changes a member's role, unless that demotes the account's last owner. The same per-account lock as removal makes
   * the owner count and the change one step: two owners demoting each other at once leave one. The member's sessions
   * read the role from the user at every request, so they see the new one at their next; a session in test mode is
   * put back to live in the same step when the new role may not use test data (docs/adr/0087), so it is never left
   * in a mode its user can neither use nor switch off.
   */
  async changeRole(
    accountId: string,
    userId: string,
    role: ConsoleRole,
  ): Promise<UserRecord | 'not_found' | 'last_owner'> {
    return this.transactions.run(async (tx) => {
      await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('console_users:' || ${accountId}))`.execute(tx.$kysely());
      const user = await tx.consoleUser.findFirst({ where: { id: userId, account_id: accountId } });
      if (!user) return 'not_found';
      if (user.role === 'owner' && role !== 'owner') {
        const owners = await tx.consoleUser.count({ where: { account_id: accountId, role: 'owner' } });
        if (owners <= 1) return 'last_owner';
      }
      const changed = (await tx.consoleUser.update({ where: { id: userId }, data: { role } })) as UserRecord;
      if (!TEST_MODE_ROLES.includes(role))
        await tx.consoleSession.updateMany({
          where: { user_id: userId, mode: { not: 'live' } },
          data: { mode: 'live' },
        });
      return changed;
    });
  }

  /**
   * A new reset link for a user: their earlier unused links stop working (only the newest counts), and resets that
   * ended over a day ago are forgotten.
   */
  async createPasswordReset(reset: {
    id: string;
    user_id: string;
    token_hash: string;
    expires_at: Date;
  }): Promise<void> {
    const now = new Date();
    await this.transactions.run(async (tx) => {
      await tx.consolePasswordReset.deleteMany({
        where: { expires_at: { lt: new Date(now.getTime() - 86_400_000) } },
      });
      await tx.consolePasswordReset.updateMany({
        where: { user_id: reset.user_id, used_at: null },
        data: { used_at: now },
      });
      await tx.consolePasswordReset.create({ data: reset });
    });
  }

  /** The unused, unexpired reset behind a token hash, with its user's address. */
  async findUsablePasswordReset(tokenHash: string): Promise<PasswordResetRecord | null> {
    const rows = await this.prisma
      .$kysely()
      .selectFrom('console_password_resets as r')
      .innerJoin('console_users as u', 'u.id', 'r.user_id')
      .select(['r.id', 'r.user_id', 'r.expires_at', 'u.email', 'u.account_id'])
      .where('r.token_hash', '=', tokenHash)
      .where('r.used_at', 'is', null)
      .where('r.expires_at', '>', sql<Date>`now()`)
      .execute();
    return rows[0] ?? null;
  }

  /**
   * Uses the reset and sets the new password, in one transaction: the link is marked used only if it still was
   * usable (a second, concurrent use finds nothing), the user's other links stop working, and every session of the
   * user ends. Null when the link was used, replaced or expired meanwhile, or its user removed.
   */
  async completePasswordReset(tokenHash: string, passwordHash: string): Promise<UserRecord | null> {
    return this.transactions.run(async (tx) => {
      const now = new Date();
      const reset = await tx.consolePasswordReset.findUnique({ where: { token_hash: tokenHash } });
      if (!reset) return null;
      const used = await tx.consolePasswordReset.updateMany({
        where: { token_hash: tokenHash, used_at: null, expires_at: { gt: now } },
        data: { used_at: now },
      });
      if (used.count !== 1) return null;
      const updated = await tx.consoleUser.updateMany({
        where: { id: reset.user_id },
        data: { password_hash: passwordHash },
      });
      if (updated.count !== 1) return null;
      await tx.consolePasswordReset.updateMany({
        where: { user_id: reset.user_id, used_at: null },
        data: { used_at: now },
      });
      await tx.consoleSession.deleteMany({ where: { user_id: reset.user_id } });
      return (await tx.consoleUser.findUnique({ where: { id: reset.user_id } })) as UserRecord;
    });
  }

  async createSession(tokenHash: string, user: UserRecord): Promise<void> {
    const now = new Date();
    await this.transactions.run(async (tx) => {
      // Each sign-in is a good moment to forget ended sessions (anyone's: sign-ins are rare, expires_at is indexed).
      await tx.consoleSession.deleteMany({ where: { expires_at: { lte: now } } });
      await tx.consoleSession.create({
        data: {
          token_hash: tokenHash,
          user_id: user.id,
          account_id: user.account_id,
          last_seen_at: now,
          expires_at: new Date(now.getTime() + SESSION_MAX_SECONDS * 1000),
        },
      });
    });
  }

  /** The live session (not past 7 days, not idle 12 hours) and its user, who must still be a member of the account. */
  async findSession(tokenHash: string): Promise<SessionRecord | null> {
    const rows = await this.prisma
      .$kysely()
      .selectFrom('console_sessions as s')
      .innerJoin('console_users as u', (join) =>
        join.onRef('u.id', '=', 's.user_id').onRef('u.account_id', '=', 's.account_id'),
      )
      .select(['s.token_hash', 's.user_id', 's.account_id', 'u.email', 'u.role', 's.last_seen_at', 's.mode'])
      .where('s.token_hash', '=', tokenHash)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .where('s.last_seen_at', '>', sql<Date>`now() - make_interval(secs => ${SESSION_IDLE_SECONDS})`)
      .$narrowType<{ role: ConsoleRole; mode: ApiKeyMode }>()
      .execute();
    return rows[0] ?? null;
  }

  /** Whose data the session works on from its next request: the live account's or its test twin's (docs/adr/0087). */
  async setSessionMode(tokenHash: string, mode: ApiKeyMode): Promise<void> {
    await this.prisma.consoleSession.updateMany({ where: { token_hash: tokenHash }, data: { mode } });
  }

  /** Moves the idle clock forward, when it lags by more than a minute (a write a minute, not one a request). */
  async touchSession(tokenHash: string): Promise<void> {
    await this.prisma
      .$kysely()
      .updateTable('console_sessions')
      .set({ last_seen_at: sql<Date>`now()` })
      .where('token_hash', '=', tokenHash)
      .where('last_seen_at', '<', sql<Date>`now() - make_interval(secs => ${SESSION_TOUCH_SECONDS})`)
      .execute();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.prisma.consoleSession.deleteMany({ where: { token_hash: tokenHash } });
  }

  async deleteSessionsOf(userId: string): Promise<number> {
    return (await this.prisma.consoleSession.deleteMany({ where: { user_id: userId } })).count;
  }
}
