import { randomUUID } from 'node:crypto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
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
import { Caller, RpcPattern, requireAccount, type RpcContext } from '@switchboard/messaging';
import { AccountsService } from './accounts.service';

/** Requests about accounts, forwarded by the gateway: the operator's, and an account's own balance. */
@Controller()
export class AccountsNatsController {
  constructor(private readonly accounts: AccountsService) {}

  @RpcPattern(AccountsRpc.create)
  create(@Payload() request: CreateAccountBody): Promise<AccountView> {
    return this.accounts.create(request);
  }

  @RpcPattern(AccountsRpc.get)
  get(@Payload() request: GetAccountQuery): Promise<AccountView> {
    return this.accounts.get(request.account_id);
  }

  /** The test twin, made at the first test key (docs/adr/0087-test-mode.md). */
  @RpcPattern(AccountsRpc.openTestMode)
  openTestMode(@Payload() request: GetAccountQuery): Promise<AccountView> {
    return this.accounts.openTestMode(request.account_id);
  }

  @RpcPattern(AccountsRpc.update)
  update(@Payload() request: UpdateAccountCommand, @Caller() ctx: RpcContext): Promise<AccountView> {
    return this.accounts.update(request, { correlationId: ctx.requestId ?? randomUUID() });
  }

  /** The account's own balance (`GET /balance`), forwarded by the gateway with the caller's account. */
  @RpcPattern(BillingRpc.balance)
  balance(@Payload() _request: GetBalanceQuery, @Caller() ctx: RpcContext): Promise<AccountBalance> {
    return this.accounts.balance(requireAccount(ctx));
  }

  @RpcPattern(AccountsRpc.credit)
  credit(@Payload() request: CreditAccountCommand, @Caller() ctx: RpcContext): Promise<BalanceView> {
    return this.accounts.credit(request, { correlationId: ctx.requestId ?? randomUUID() });
  }
}
