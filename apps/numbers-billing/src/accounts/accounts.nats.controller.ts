import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AccountsRpc,
  BillingRpc,
  type AccountBalance,
  type AccountView,
  type BalanceView,
  type CreateAccountBody,
  type CreditAccountCommand,
  type GetAccountQuery,
  type GetBalanceQuery,
  type UpdateAccountCommand,
} from '@switchboard/contracts';
import { RpcHandler, requireAccount, type RpcContext } from '@switchboard/messaging';
import { AccountsService } from './accounts.service';

/** Requests about accounts, forwarded by the gateway: the operator's, and an account's own balance. */
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

  /** The test twin, made at the first test key (docs/adr/0087-test-mode.md). */
  @RpcHandler(AccountsRpc.openTestMode)
  openTestMode(request: GetAccountQuery): Promise<AccountView> {
    return this.accounts.openTestMode(request.account_id);
  }

  @RpcHandler(AccountsRpc.update)
  update(request: UpdateAccountCommand, ctx: RpcContext): Promise<AccountView> {
    return this.accounts.update(request, { correlationId: ctx.requestId ?? randomUUID() });
  }

  /** The account's own balance (`GET /balance`), forwarded by the gateway with the caller's account. */
  @RpcHandler(BillingRpc.balance)
  balance(_request: GetBalanceQuery, ctx: RpcContext): Promise<AccountBalance> {
    return this.accounts.balance(requireAccount(ctx));
  }

  @RpcHandler(AccountsRpc.credit)
  credit(request: CreditAccountCommand, ctx: RpcContext): Promise<BalanceView> {
    return this.accounts.credit(request, { correlationId: ctx.requestId ?? randomUUID() });
  }
}
