import { Inject, Injectable } from '@nestjs/common';
import {
  AccountsRpc,
  ServiceError,
  formatUtcTime,
  type ConsoleInviteView,
  type ConsoleRole,
  type OperatorInviteView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { GatewayConfig } from '../../config/gateway.config';
import { GATEWAY_CONFIG } from '../../config/tokens';
import { EmailPort } from '../../email/email.port';
import type { SessionView } from './console-session';
import { IdentityRepository } from './identity.repository';
import { passwordProblem } from './password-policy';
import { hashPassword } from './passwords';
import { newId, newToken, sha256 } from './secrets';
import { SessionsService } from './sessions.service';

/** Invite links work for 7 days, once. */
export const INVITE_TTL_SECONDS = 7 * 24 * 60 * 60;

const INVITE_NOT_FOUND =
  'This invite link is unknown, was already used, or has expired (links last 7 days). Ask an owner of the account for a new one.';

export interface NewInvite {
  accountId: string;
  email: string;
  role: ConsoleRole;
  /** The inviting user, or null for an operator. */
  invitedBy: string | null;
  requestId: string;
}

/** Inviting people to an account, and an invite's acceptance (docs/adr/0066). */
@Injectable()
export class InvitesService {
  constructor(
    private readonly identity: IdentityRepository,
    private readonly sessions: SessionsService,
    private readonly email: EmailPort,
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Makes a one-time invite link and mails it. The token is in the link's fragment (`#token=`), which browsers do
   * not send, so it never reaches a server's log; the database keeps its SHA-256.
   */
  async invite(request: NewInvite): Promise<OperatorInviteView> {
    const email = request.email.trim().toLowerCase();
    // The account must exist: numbers-billing owns accounts and answers 404 not_found otherwise.
    const account = await this.rpc.request(
      AccountsRpc.get,
      { account_id: request.accountId },
      { requestId: request.requestId },
    );
    const existing = await this.identity.findUserByEmail(email);
    if (existing) {
      // Not which account: an owner learns only what the invite could not do anyway.
      throw new ServiceError(
        'already_a_user',
        `${email} already has a Switchboard console user; a person belongs to one account.`,
      );
    }
    const token = newToken();
    const id = newId('inv');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_SECONDS * 1000);
    await this.identity.createInvite({
      id,
      account_id: request.accountId,
      email,
      role: request.role,
      created_at: now,
      expires_at: expiresAt,
      token_hash: sha256(token),
      invited_by: request.invitedBy,
    });
    const inviteUrl = `${this.config.console.url}accept-invite#token=${token}`;
    await this.email.send({
      to: email,
      subject: `You are invited to ${account.name} on Switchboard`,
      body:
        `You have been invited to the Switchboard account "${account.name}" as ${request.role}.\n\n` +
        `Choose a password and sign in here (the link works once, until ${formatUtcTime(expiresAt)}):\n${inviteUrl}\n\n` +
        'If you did not expect this, ignore this message.',
    });
    return { id, email, role: request.role, invite_url: inviteUrl, expires_at: expiresAt.toISOString() };
  }

  /** The console's own answer: the link goes by email only. */
  async inviteFromConsole(request: NewInvite): Promise<ConsoleInviteView> {
    const invite = await this.invite(request);
    return { id: invite.id, email: invite.email, role: invite.role, status: 'invited', expires_at: invite.expires_at };
  }

  async lookup(
    token: string,
    requestId: string,
  ): Promise<{ email: string; role: ConsoleRole; account_name: string; expires_at: string }> {
    const invite = await this.identity.findUsableInvite(sha256(token));
    if (!invite) throw new ServiceError('invite_not_found', INVITE_NOT_FOUND);
    const account = await this.rpc.request(AccountsRpc.get, { account_id: invite.account_id }, { requestId });
    return {
      email: invite.email,
      role: invite.role,
      account_name: account.name,
      expires_at: invite.expires_at.toISOString(),
    };
  }

  /** Sets the new user's password (the policy first), uses the invite, and signs the user in. */
  async accept(token: string, password: string, requestId: string): Promise<{ token: string; view: SessionView }> {
    const tokenHash = sha256(token);
    const invite = await this.identity.findUsableInvite(tokenHash);
    if (!invite) throw new ServiceError('invite_not_found', INVITE_NOT_FOUND);
    const account = await this.rpc.request(AccountsRpc.get, { account_id: invite.account_id }, { requestId });
    const problem = await passwordProblem(password, { email: invite.email, accountName: account.name });
    if (problem) throw new ServiceError('invalid_request', problem);
    const user = await this.identity.acceptInvite(tokenHash, {
      id: newId('usr'),
      account_id: invite.account_id,
      email: invite.email,
      role: invite.role,
      password_hash: await hashPassword(password),
    });
    if (user === null) throw new ServiceError('invite_not_found', INVITE_NOT_FOUND);
    if (user === 'taken')
      throw new ServiceError('already_a_user', `${invite.email} is already a user; sign in instead.`);
    return this.sessions.open(user, requestId);
  }
}
