import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ServiceError, accountForMode } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { ConsoleSessionInfo } from '../identity/console-session';
import { SessionsService } from '../identity/sessions.service';
import { sessionTokenOf } from './session-cookie';

export const NOT_SIGNED_IN =
  'Sign in to use the console: there is no session, or it has ended (signed out, 12 hours idle, 7 days old, or the user was removed).';

/**
 * Every console route but sign-in and the invite pages: the `sb_session` cookie must name a live session of a user
 * who is still a member of the account; otherwise 401 `not_signed_in`. The session's account then goes with every
 * request to the services (`@Caller()`), exactly as an API key's does: the live account's, or its test twin's while
 * the session is in test mode (docs/adr/0087). What stays the live account's (team, invitations, account settings)
 * reads `sessionOf(request).accountId` instead.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = sessionTokenOf(request.headers.cookie);
    const session = token ? await this.sessions.find(token) : undefined;
    if (!session) throw new ServiceError('not_signed_in', NOT_SIGNED_IN);
    request.consoleSession = session;
    request.sessionAccountId = accountForMode(session.accountId, session.mode);
    return true;
  }
}

/** The session SessionGuard found; only for handlers behind it (the surfaces test checks every console controller). */
export function sessionOf(request: FastifyRequest): ConsoleSessionInfo {
  if (!request.consoleSession) throw new ServiceError('not_signed_in', NOT_SIGNED_IN);
  return request.consoleSession;
}

/** The session's account, from the caller options `@Caller()` made behind SessionGuard. */
export function accountIdOf(caller: { accountId?: string }): string {
  if (!caller.accountId) throw new ServiceError('not_signed_in', NOT_SIGNED_IN);
  return caller.accountId;
}
