import { defineRpc } from '../messaging/rpc';
import {
  AccountView,
  BalanceView,
  CreateAccountBody,
  CreditAccountCommand,
  GetAccountQuery,
  UpdateAccountCommand,
} from './account.dto';

/** Accounts and their money live in numbers-billing; the operator API reaches them through these. */
export const AccountsRpc = {
  create: defineRpc<CreateAccountBody, AccountView>('billing.v1.accounts.create', CreateAccountBody),
  get: defineRpc<GetAccountQuery, AccountView>('billing.v1.accounts.get', GetAccountQuery),
  update: defineRpc<UpdateAccountCommand, AccountView>('billing.v1.accounts.update', UpdateAccountCommand),
  credit: defineRpc<CreditAccountCommand, BalanceView>('billing.v1.accounts.credit', CreditAccountCommand),
  /**
   * The account's test twin (docs/adr/0087-test-mode.md), made the first time a test key is made: answers the twin,
   * made now or before. The live account must exist.
   */
  openTestMode: defineRpc<GetAccountQuery, AccountView>('billing.v1.accounts.open-test-mode', GetAccountQuery),
} as const;
