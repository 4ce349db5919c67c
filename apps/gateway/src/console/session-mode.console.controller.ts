import { Body, Controller, HttpCode, Put, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { API_KEY_MODES, ConsoleSessionView, type ApiKeyMode } from '@switchboard/contracts';
import { IsIn } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { CsrfGuard } from './guards/csrf.guard';
import { ANY_ROLE, RoleGuard, Roles } from './guards/roles';
import { SessionGuard, sessionOf } from './guards/session.guard';
import { SessionsService } from './identity/sessions.service';

/** `PUT /console/api/session/mode` body. */
export class SessionModeBody {
  @ApiProperty({ enum: API_KEY_MODES })
  @IsIn(API_KEY_MODES, { message: 'mode must be "live" or "test"' })
  mode: ApiKeyMode;
}

/**
 * The session's data switch (Stripe's "test mode" toggle, docs/adr/0087): under `test` every console read and write
 * of numbers, calls, recordings, transcripts, balance, ledger, usage, webhook deliveries and the lost-and-found desk
 * is the account's test twin's (docs/adr/0087); the team, invitations and account settings stay the live account's.
 * Stored on the session, so it holds for every request of it (the audio element's too) and ends with it. Owners,
 * developers and viewers may switch: it shows nothing the role could not read in live mode. Staff, who see the desk
 * alone (docs/adr/0080), stay on live data.
 */
@ApiTags('session')
@Controller('console/api/session')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class SessionModeConsoleController {
  constructor(private readonly sessions: SessionsService) {}

  @Put('mode')
  @HttpCode(200)
  @Roles(ANY_ROLE, 'switch between live and test data')
  @ApiOkResponse({ type: ConsoleSessionView, description: 'The session, with its new `mode`.' })
  setMode(@Body() body: SessionModeBody, @Req() request: FastifyRequest): Promise<ConsoleSessionView> {
    return this.sessions.setMode(sessionOf(request), body.mode, String(request.id));
  }
}
