import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ListNumbersQuery, NumberList, NumbersRpc } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/authenticated-request';

@ApiTags('numbers')
@ApiBearerAuth()
@Controller('numbers')
@UseGuards(ApiKeyGuard)
export class NumbersHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOkResponse({ type: NumberList, description: "The account's numbers, active first." })
  list(@Query() query: ListNumbersQuery, @CurrentCaller() caller: Caller): Promise<NumberList> {
    return this.rpc.request(NumbersRpc.list, query, { accountId: caller.accountId, requestId: caller.requestId });
  }
}
