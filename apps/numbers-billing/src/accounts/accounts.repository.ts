import { Injectable } from '@nestjs/common';
import type { Tier } from '@switchboard/contracts';
import type { Selectable } from 'kysely';
import type { Account } from '../generated/kysely/database';
import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';

export type AccountRecord = Selectable<Account>;

export interface AccountChanges {
  tier?: Tier;
  number_limit?: number;
  auto_top_up_threshold_cents?: number | null;
  auto_top_up_amount_cents?: number | null;
}

@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  /** A new account with a zero balance (an opening balance is a ledger row, written by the caller). */
  create(tx: Tx, account: { id: string; name: string; tier: Tier }): Promise<AccountRecord> {
    return tx.account.create({ data: { ...account, balance_millicents: 0n } });
  }

  find(id: string, tx: Tx = this.prisma): Promise<AccountRecord | null> {
    return tx.account.findUnique({ where: { id } });
  }

  update(tx: Tx, id: string, changes: AccountChanges): Promise<AccountRecord> {
    return tx.account.update({ where: { id }, data: changes });
  }
}
