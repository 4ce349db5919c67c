import { Injectable } from '@nestjs/common';
import { AccountsRpc, ServiceError, type ApiKeyMode } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { modeFor, type ConsoleSessionInfo, type SessionView } from './console-session';
import { IdentityRepository, type UserRecord } from './identity.repository';
import { verifyDecoy, verifyPassword } from './passwords';
import { csrfTokenOf, newToken, sha256 } from './secrets';
import { SignInThrottle } from './sign-in-throttle';

const INVALID_CREDENTIALS =
  'The email address or the password is not right. Check both and try again; after 5 failures, sign-in pauses for 15 minutes.';

/** Sign-in, the session behind a cookie, sign-out (docs/adr/0066). */
@Injectable()
export class SessionsService {
  constructor(
    private readonly identity: IdentityRepository,
    private readonly throttle: SignInThrottle,
    private readonly rpc: RpcClient,
  ) {}

  /**
   * Takes an attempt from the throttle, then checks the password (argon2id): a wrong one leaves the attempt counted
   * as a failure, a right one gives it back and opens a session, answering its token.
   */
  async signIn(
    email: string,
    password: string,
    clientIp: string,
    requestId: string,
  ): Promise<{ token: string; view: SessionView }> {
    const address = email.trim().toLowerCase();
    const attempt = await this.throttle.take(address, clientIp);
    const user = await this.identity.findUserByEmail(address);
    const ok = user ? await verifyPassword(user.password_hash, password) : await verifyDecoy(password);
    if (!user || !ok) throw new ServiceError('invalid_credentials', INVALID_CREDENTIALS);
    await this.throttle.succeeded(attempt);
    return this.open(user, requestId);
  }

  /** A new session for a user who just proved who they are (sign-in, invite accepted). */
  async open(user: UserRecord, requestId: string): Promise<{ token: string; view: SessionView }> {
    const token = newToken();
    // The account first: with numbers-billing unreachable the answer is 503 and no session is left behind.
    const view = await this.viewOf(
      {
        accountId: user.account_id,
        userId: user.id,
        email: user.email,
        role: user.role,
        csrfToken: csrfTokenOf(token),
        mode: 'live',
      },
      requestId,
    );
    await this.identity.createSession(sha256(token), user);
    return { token, view };
  }

  /** The session behind a cookie's token, or undefined (unknown, ended, idle too long, user removed). */
  async find(token: string): Promise<ConsoleSessionInfo | undefined> {
    const tokenHash = sha256(token);
    const session = await this.identity.findSession(tokenHash);
    if (!session) return undefined;
    if (Date.now() - session.last_seen_at.getTime() > 60_000) await this.identity.touchSession(tokenHash);
    return {
      tokenHash,
      userId: session.user_id,
      accountId: session.account_id,
      email: session.email,
      role: session.role,
      csrfToken: csrfTokenOf(token),
      // A session whose user lost the right to test data reads live data, whatever its row still says.
      mode: modeFor(session.role, session.mode),
    };
  }

  async viewOf(
    session: Pick<ConsoleSessionInfo, 'accountId' | 'userId' | 'email' | 'role' | 'csrfToken' | 'mode'>,
    requestId: string,
  ): Promise<SessionView> {
    const account = await this.rpc.request(AccountsRpc.get, { account_id: session.accountId }, { requestId });
    return {
      user: { id: session.userId, email: session.email, role: session.role },
      account: { id: account.id, name: account.name, tier: account.tier },
      csrf_token: session.csrfToken,
      mode: session.mode,
    };
  }

  /**
   * Switches the session between the account's data and its test twin's (docs/adr/0087). The twin is made on the
   * first switch to test, as with the first test key (docs/adr/0087); switching is idempotent.
   */
  async setMode(session: ConsoleSessionInfo, mode: ApiKeyMode, requestId: string): Promise<SessionView> {
    if (mode === 'test')
      await this.rpc.request(AccountsRpc.openTestMode, { account_id: session.accountId }, { requestId });
    await this.identity.setSessionMode(session.tokenHash, mode);
    return this.viewOf({ ...session, mode }, requestId);
  }

  signOut(session: ConsoleSessionInfo): Promise<void> {
    return this.identity.deleteSession(session.tokenHash);
  }

  async signOutEverywhere(session: ConsoleSessionInfo): Promise<void> {
    await this.identity.deleteSessionsOf(session.userId);
  }
}
