import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AccountsRpc,
  type AccountView,
  type BalanceView,
  type CreateAccountBody,
  type CreditAccountCommand,
  type GetAccountQuery,
  type UpdateAccountCommand,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { AccountsService } from './accounts.service';

/** Operator requests about accounts, forwarded by the gateway. */
@Injectable()
export class AccountsNatsController {
  constructor(private readonly accounts: AccountsService) {}

  @RpcHandler(AccountsRpc.create)
  create(request: CreateAccountBody): Promise<AccountView> {
    return this.accounts.create(request);
  }

  @RpcHandler(AccountsRpc.get)
  get(request: GetAccountQuery): Promise<AccountView> {
    return this.accounts.get(request.account_id);
  }

  @RpcHandler(AccountsRpc.update)
  update(request: UpdateAccountCommand, ctx: RpcContext): Promise<AccountView> {
    return this.accounts.update(request, { correlationId: ctx.requestId ?? randomUUID() });
  }

  @RpcHandler(AccountsRpc.credit)
  credit(request: CreditAccountCommand, ctx: RpcContext): Promise<BalanceView> {
    return this.accounts.credit(request, { correlationId: ctx.requestId ?? randomUUID() });
  }
}
