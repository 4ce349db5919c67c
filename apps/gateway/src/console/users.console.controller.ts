import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ChangeUserRoleBody,
  ConsoleInviteView,
  ConsoleMemberIdParam,
  ConsoleUserIdParam,
  ConsoleUserList,
  ConsoleUserRemoved,
  ConsoleUserView,
  InviteUserBody,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { SessionGuard, sessionOf } from './guards/session.guard';
import { InvitesService } from './identity/invites.service';
import { UsersService } from './identity/users.service';

/** The account's people: everyone reads the list; owners invite, change roles and remove. */
@ApiTags('team')
@Controller('console/api/users')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class UsersConsoleController {
  constructor(
    private readonly users: UsersService,
    private readonly invites: InvitesService,
  ) {}

  @Get()
  @ApiOkResponse({ type: ConsoleUserList })
  list(@Req() request: FastifyRequest): Promise<ConsoleUserList> {
    return this.users.list(sessionOf(request).accountId);
  }

  @Post('invites')
  @HttpCode(201)
  @Roles(['owner'], 'invite users')
  @ApiCreatedResponse({ type: ConsoleInviteView, description: 'The invite; its link goes by email.' })
  invite(@Body() body: InviteUserBody, @Req() request: FastifyRequest): Promise<ConsoleInviteView> {
    const session = sessionOf(request);
    return this.invites.inviteFromConsole({
      accountId: session.accountId,
      email: body.email,
      role: body.role,
      invitedBy: session.userId,
      requestId: String(request.id),
    });
  }

  /** A member's new role; the last owner cannot stop being one (409 `last_owner`). */
  @Patch(':id')
  @Roles(['owner'], "change people's roles")
  @ApiParam({ name: 'id', description: 'A user (`usr_...`).' })
  @ApiOkResponse({ type: ConsoleUserView })
  changeRole(
    @Param() params: ConsoleMemberIdParam,
    @Body() body: ChangeUserRoleBody,
    @Req() request: FastifyRequest,
  ): Promise<ConsoleUserView> {
    return this.users.changeRole(sessionOf(request).accountId, params.id, body.role);
  }

  @Delete(':id')
  @HttpCode(200)
  @Roles(['owner'], 'remove users')
  @ApiParam({ name: 'id', description: 'A user (`usr_...`) or a pending invite (`inv_...`).' })
  @ApiOkResponse({ type: ConsoleUserRemoved })
  async remove(@Param() params: ConsoleUserIdParam, @Req() request: FastifyRequest): Promise<ConsoleUserRemoved> {
    await this.users.remove(sessionOf(request).accountId, params.id);
    return { removed: true };
  }
}
