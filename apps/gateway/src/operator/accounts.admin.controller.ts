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
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** Accounts and their money are owned by numbers-billing; these routes forward to it. */
@Controller('admin/accounts')
@UseGuards(AdminTokenGuard)
export class AccountsAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  create(@Body() body: CreateAccountBody, @Caller() caller: CallerOptions): Promise<AccountView> {
    return this.rpc.request(AccountsRpc.create, body, caller);
  }

  @Get(':account_id')
  get(@Param() params: AccountIdParam, @Caller() caller: CallerOptions): Promise<AccountView> {
    return this.rpc.request(AccountsRpc.get, { account_id: params.account_id }, caller);
  }

  @Patch(':account_id')
  update(
    @Param() params: AccountIdParam,
    @Body() body: UpdateAccountBody,
    @Caller() caller: CallerOptions,
  ): Promise<AccountView> {
    return this.rpc.request(AccountsRpc.update, { ...body, account_id: params.account_id }, caller);
  }

  @Post(':account_id/credits')
  @HttpCode(200)
  credit(
    @Param() params: AccountIdParam,
    @Body() body: CreditAccountBody,
    @Caller() caller: CallerOptions,
  ): Promise<BalanceView> {
    return this.rpc.request(AccountsRpc.credit, { ...body, account_id: params.account_id }, caller);
  }
}
