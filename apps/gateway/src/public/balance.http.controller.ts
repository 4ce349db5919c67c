import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccountBalance, BillingRpc } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';

/** `GET /balance`: the caller's own account, answered by numbers-billing (docs/adr/0057-public-api-rules.md). */
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
      "in UTC): `minutes_used` in whole minutes, `seconds_used` exact, `minutes_included` the tier's monthly minutes (null: unlimited).",
  })
  @ApiOkResponse({ type: AccountBalance })
  get(@Caller() caller: CallerOptions): Promise<AccountBalance> {
    return this.rpc.request(BillingRpc.balance, {}, caller);
  }
}
