import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountIdParam, OperatorInviteUserBody, type OperatorInviteView } from '@switchboard/contracts';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';
import { InvitesService } from '../console/identity/invites.service';

/**
 * `POST /admin/accounts/{account_id}/users`: an operator invites a person (an account's first owner, by default) to
 * the console. The answer holds the one-time link (also mailed through the email port) for the operator to pass on.
 */
@Controller('admin/accounts/:account_id/users')
@UseGuards(AdminTokenGuard)
export class UsersAdminController {
  constructor(private readonly invites: InvitesService) {}

  @Post()
  @HttpCode(201)
  invite(
    @Param() params: AccountIdParam,
    @Body() body: OperatorInviteUserBody,
    @Caller() caller: CallerOptions,
  ): Promise<OperatorInviteView> {
    return this.invites.invite({
      accountId: params.account_id,
      email: body.email,
      role: body.role ?? 'owner',
      invitedBy: null,
      requestId: caller.requestId,
    });
  }
}
