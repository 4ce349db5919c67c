import { Injectable } from '@nestjs/common';
import {
  DEFAULT_NUMBER_LIMIT,
  ServiceError,
  type AccountView,
  type BalanceView,
  type CreateAccountBody,
  type CreditAccountCommand,
  type UpdateAccountCommand,
} from '@switchboard/contracts';
import { newAccountId } from './account-id';
import { AccountsRepository, type AccountRecord } from './accounts.repository';

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async create(command: CreateAccountBody): Promise<AccountView> {
    const account = await this.accounts.create({
      id: newAccountId(),
      name: command.name,
      balance_cents: BigInt(command.balance_cents ?? 0),
      tier: command.tier ?? 'starter',
    });
    return toView(account);
  }

  async get(accountId: string): Promise<AccountView> {
    return toView(await this.require(accountId));
  }

  async update(command: UpdateAccountCommand): Promise<AccountView> {
    const updated = await this.accounts.update(command.account_id, { tier: command.tier, number_limit: command.number_limit });
    if (!updated) throw notFound();
    return toView(updated);
  }

  async credit(command: CreditAccountCommand): Promise<BalanceView> {
    const balance = await this.accounts.credit(command.account_id, BigInt(command.amount_cents));
    if (balance === null) throw notFound();
    return { balance_cents: Number(balance) };
  }

  private async require(accountId: string): Promise<AccountRecord> {
    const account = await this.accounts.find(accountId);
    if (!account) throw notFound();
    return account;
  }
}

function notFound(): ServiceError {
  return new ServiceError('not_found', 'No account with that id.');
}

function toView(account: AccountRecord): AccountView {
  return {
    id: account.id,
    name: account.name,
    balance_cents: Number(account.balance_cents),
    tier: account.tier as AccountView['tier'],
    number_limit: account.number_limit ?? DEFAULT_NUMBER_LIMIT,
    created_at: account.created_at.toISOString(),
    auto_top_up: null,
  };
}
