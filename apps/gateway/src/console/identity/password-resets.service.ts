import { Inject, Injectable } from '@nestjs/common';
import { AccountsRpc, ServiceError, formatUtcTime } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { GatewayConfig } from '../../config/gateway.config';
import { GATEWAY_CONFIG } from '../../config/tokens';
import { EmailPort } from '../../email/email.port';
import type { SessionView } from './console-session';
import { IdentityRepository } from './identity.repository';
import { passwordProblem } from './password-policy';
import { hashPassword } from './passwords';
import { newId, newToken, sha256 } from './secrets';
import { SessionsService } from './sessions.service';
import { SignInThrottle } from './sign-in-throttle';

/** Reset links work for 30 minutes, once. */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;

/** The one answer to every reset request, whether the address has a user or not. */
export const PASSWORD_RESET_REQUESTED =
  'If this email address has a Switchboard console user, a link to choose a new password is on its way. It works once, for 30 minutes.';

const RESET_NOT_FOUND =
  'This password reset link is unknown, was already used, or has expired (links last 30 minutes, and only the newest one works). Ask for a new one from the sign-in page.';

/** "Forgot your password?": a link by email, then a new password (docs/adr/0066). */
@Injectable()
export class PasswordResetsService {
  constructor(
    private readonly identity: IdentityRepository,
    private readonly sessions: SessionsService,
    private readonly throttle: SignInThrottle,
    private readonly email: EmailPort,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly rpc: RpcClient,
  ) {}

  /**
   * Counts the request (429 only for a client asking too often, whatever the address), then answers the same sentence
   * at once. The user is looked up and mailed after the answer: neither its content nor its timing nor a failure to
   * send tells whether the address has a user.
   */
  async request(email: string, clientIp: string): Promise<{ message: string }> {
    const address = email.trim().toLowerCase();
    const { mayMail } = await this.throttle.takePasswordReset(address, clientIp);
    if (mayMail) {
      void this.mail(address).catch((error: unknown) =>
        this.logger.error({ err: error }, 'password reset: the link could not be mailed'),
      );
    }
    return { message: PASSWORD_RESET_REQUESTED };
  }

  /**
   * Makes a one-time link and mails it, when the address has a user. As with invites, the token is in the link's
   * fragment, which browsers do not send, and the database keeps its SHA-256.
   */
  private async mail(address: string): Promise<void> {
    const user = await this.identity.findUserByEmail(address);
    if (!user) return;
    const token = newToken();
    const expiresAt = new Date(Date.now() + PASSWORD_RESET_TTL_SECONDS * 1000);
    await this.identity.createPasswordReset({
      id: newId('pwr'),
      user_id: user.id,
      token_hash: sha256(token),
      expires_at: expiresAt,
    });
    const resetUrl = `${this.config.console.url}reset-password#token=${token}`;
    await this.email.send({
      to: address,
      subject: 'Choose a new Switchboard console password',
      body:
        'Someone, hopefully you, asked to reset the password of your Switchboard console user.\n\n' +
        `Choose a new password here (the link works once, until ${formatUtcTime(expiresAt)}):\n${resetUrl}\n\n` +
        'Choosing one signs you out everywhere else. If you did not ask for this, ignore this message: your password stays as it is.',
    });
  }

  /** Which user the link is for, for the page to say so (404 `not_found` once used, replaced or expired). */
  async lookup(token: string): Promise<{ email: string; expires_at: string }> {
    const reset = await this.identity.findUsablePasswordReset(sha256(token));
    if (!reset) throw new ServiceError('not_found', RESET_NOT_FOUND);
    return { email: reset.email, expires_at: reset.expires_at.toISOString() };
  }

  /**
   * Sets the new password (the invite's policy first), uses the link, ends every session of the user and signs them
   * in with a new one.
   */
  async complete(token: string, password: string, requestId: string): Promise<{ token: string; view: SessionView }> {
    const tokenHash = sha256(token);
    const reset = await this.identity.findUsablePasswordReset(tokenHash);
    if (!reset) throw new ServiceError('not_found', RESET_NOT_FOUND);
    const account = await this.rpc.request(AccountsRpc.get, { account_id: reset.account_id }, { requestId });
    const problem = await passwordProblem(password, { email: reset.email, accountName: account.name });
    if (problem) throw new ServiceError('invalid_request', problem);
    const user = await this.identity.completePasswordReset(tokenHash, await hashPassword(password));
    if (!user) throw new ServiceError('not_found', RESET_NOT_FOUND);
    return this.sessions.open(user, requestId);
  }
}
