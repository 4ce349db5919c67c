import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  AcceptInviteBody,
  CompletePasswordResetBody,
  ConsoleInviteLookup,
  ConsoleSessionView,
  ConsoleSignedIn,
  ConsoleSignedOut,
  InviteTokenBody,
  PasswordResetLookup,
  PasswordResetRequestBody,
  PasswordResetRequested,
  PasswordResetTokenBody,
  SignInBody,
  type ConsoleSessionProbe,
} from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Caller, type CallerOptions } from '../auth';
import { ConsoleOriginGuard, CsrfGuard } from './guards/csrf.guard';
import { EVERY_ROLE, RoleGuard, Roles } from './guards/roles';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from './guards/session-cookie';
import { SessionGuard, sessionOf } from './guards/session.guard';
import { InvitesService } from './identity/invites.service';
import { PasswordResetsService } from './identity/password-resets.service';
import { SessionsService } from './identity/sessions.service';

/** Sign-in, the invite pages and password resets: the only console routes without a session (their Origin is still checked). */
@ApiTags('session')
@Controller('console/api')
@UseGuards(ConsoleOriginGuard)
export class ConsoleSignInController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly invites: InvitesService,
    private readonly passwordResets: PasswordResetsService,
  ) {}

  @Post('sign-in')
  @HttpCode(200)
  @ApiOkResponse({ type: ConsoleSessionView, description: 'Signed in: the session cookie is set.' })
  async signIn(
    @Body() body: SignInBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const { token, view } = await this.sessions.signIn(body.email, body.password, request.ip, String(request.id));
    void reply.header('Set-Cookie', sessionCookie(token));
    return view;
  }

  /**
   * The pages' session probe: 200 `{ signed_in: false }` without a live session (no 401, which a browser logs as a
   * console error on every signed-out page), else 200 `{ signed_in: true, user, account, csrf_token }` as
   * `GET /session` answers. `GET /session` itself stays 401 `not_signed_in` for a client that wants a session.
   */
  @Get('session-status')
  @ApiExtraModels(ConsoleSignedOut, ConsoleSignedIn)
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(ConsoleSignedOut) }, { $ref: getSchemaPath(ConsoleSignedIn) }] },
  })
  async sessionStatus(@Req() request: FastifyRequest): Promise<ConsoleSessionProbe> {
    const token = sessionTokenOf(request.headers.cookie);
    const session = token ? await this.sessions.find(token) : undefined;
    if (!session) return { signed_in: false };
    return { signed_in: true, ...(await this.sessions.viewOf(session, String(request.id))) };
  }

  @Post('invites/lookup')
  @HttpCode(200)
  @ApiOkResponse({ type: ConsoleInviteLookup })
  lookup(@Body() body: InviteTokenBody, @Caller() caller: CallerOptions): Promise<ConsoleInviteLookup> {
    return this.invites.lookup(body.token, caller.requestId);
  }

  @Post('invites/accept')
  @HttpCode(200)
  @ApiOkResponse({ type: ConsoleSessionView, description: 'The new user, signed in: the session cookie is set.' })
  async accept(
    @Body() body: AcceptInviteBody,
    @Caller() caller: CallerOptions,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const { token, view } = await this.invites.accept(body.token, body.password, caller.requestId);
    void reply.header('Set-Cookie', sessionCookie(token));
    return view;
  }

  /**
   * "Forgot your password?": 202 with the same message whether the address has a user or not; the link goes by
   * email only. 429 `rate_limited` when this client asked too often (docs/adr/0066).
   */
  @Post('password-resets')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: PasswordResetRequested })
  requestPasswordReset(
    @Body() body: PasswordResetRequestBody,
    @Req() request: FastifyRequest,
  ): Promise<PasswordResetRequested> {
    return this.passwordResets.request(body.email, request.ip);
  }

  @Post('password-resets/lookup')
  @HttpCode(200)
  @ApiOkResponse({ type: PasswordResetLookup })
  lookupPasswordReset(@Body() body: PasswordResetTokenBody): Promise<PasswordResetLookup> {
    return this.passwordResets.lookup(body.token);
  }

  /** The new password: every other session of the user ends, and this browser is signed in. */
  @Post('password-resets/complete')
  @HttpCode(200)
  @ApiOkResponse({ type: ConsoleSessionView, description: 'The new password is set and this browser signed in.' })
  async completePasswordReset(
    @Body() body: CompletePasswordResetBody,
    @Caller() caller: CallerOptions,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const { token, view } = await this.passwordResets.complete(body.token, body.password, caller.requestId);
    void reply.header('Set-Cookie', sessionCookie(token));
    return view;
  }
}

/** The signed-in session: who, which account, the CSRF token; sign-out here or everywhere. */
@ApiTags('session')
@Controller('console/api')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class ConsoleSessionController {
  constructor(private readonly sessions: SessionsService) {}

  @Get('session')
  @Roles(EVERY_ROLE, 'see the session')
  @ApiOkResponse({ type: ConsoleSessionView })
  session(@Req() request: FastifyRequest): Promise<ConsoleSessionView> {
    return this.sessions.viewOf(sessionOf(request), String(request.id));
  }

  @Post('sign-out')
  @HttpCode(204)
  @Roles(EVERY_ROLE, 'sign out')
  @ApiNoContentResponse({ description: 'Signed out: the session cookie is cleared.' })
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.signOut(sessionOf(request));
    void reply.header('Set-Cookie', clearedSessionCookie());
  }

  @Post('sign-out-everywhere')
  @HttpCode(204)
  @Roles(EVERY_ROLE, 'sign out everywhere')
  @ApiNoContentResponse({ description: "Every session of the user ended; this one's cookie is cleared." })
  async signOutEverywhere(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.signOutEverywhere(sessionOf(request));
    void reply.header('Set-Cookie', clearedSessionCookie());
  }
}
