import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccountBalance, BillingRpc } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/authenticated-request';

/** `GET /balance`: the caller's own account, answered by numbers-billing (docs/adr/0057-self-service-reads-and-updates.md). */
@ApiTags('balance')
@ApiBearerAuth()
@Controller('balance')
@UseGuards(ApiKeyGuard)
export class BalanceHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'Balance, tier and talk time',
    description:
      "The account's prepaid balance in cents, its tier, and the talk time used in the current period (the calendar month " +
      'in UTC): `minutes_used` in whole minutes, `seconds_used` exact, `minutes_included` the tier\'s monthly minutes (null: unlimited).',
  })
  @ApiOkResponse({ type: AccountBalance })
  get(@CurrentCaller() caller: Caller): Promise<AccountBalance> {
    return this.rpc.request(BillingRpc.balance, {}, { accountId: caller.accountId, requestId: caller.requestId });
  }
}
