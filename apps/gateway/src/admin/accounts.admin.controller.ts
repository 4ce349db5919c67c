import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  AccountIdParam,
  AccountsRpc,
  CreateAccountBody,
  CreditAccountBody,
  UpdateAccountBody,
  type AccountView,
  type BalanceView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { RequestId } from '../auth/authenticated-request';
import { AdminTokenGuard } from './admin-token.guard';

/** Accounts and their money are owned by numbers-billing; these routes forward to it. */
@Controller('admin/accounts')
@UseGuards(AdminTokenGuard)
export class AccountsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  create(@Body() body: CreateAccountBody, @RequestId() requestId: string): Promise<AccountView> {
    return this.rpc.request(AccountsRpc.create, body, { requestId });
  }

  @Get(':account_id')
  get(@Param() params: AccountIdParam, @RequestId() requestId: string): Promise<AccountView> {
    return this.rpc.request(AccountsRpc.get, { account_id: params.account_id }, { requestId });
  }

  @Patch(':account_id')
  update(@Param() params: AccountIdParam, @Body() body: UpdateAccountBody, @RequestId() requestId: string): Promise<AccountView> {
    return this.rpc.request(AccountsRpc.update, { ...body, account_id: params.account_id }, { requestId });
  }

  @Post(':account_id/credits')
  @HttpCode(200)
  credit(@Param() params: AccountIdParam, @Body() body: CreditAccountBody, @RequestId() requestId: string): Promise<BalanceView> {
    return this.rpc.request(AccountsRpc.credit, { ...body, account_id: params.account_id }, { requestId });
  }
}
