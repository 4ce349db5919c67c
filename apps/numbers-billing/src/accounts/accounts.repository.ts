import { Injectable } from '@nestjs/common';
import type { Tier } from '@switchboard/contracts';
import { NumbersBillingPrisma } from '../prisma/numbers-billing-prisma';

export interface AccountRecord {
  id: string;
  name: string;
  balance_cents: bigint;
  tier: string;
  number_limit: number;
  created_at: Date;
}

@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  create(account: { id: string; name: string; balance_cents: bigint; tier: Tier }): Promise<AccountRecord> {
    return this.prisma.account.create({ data: account });
  }

  find(id: string): Promise<AccountRecord | null> {
    return this.prisma.account.findUnique({ where: { id } });
  }

  async update(id: string, changes: { tier?: Tier; number_limit?: number }): Promise<AccountRecord | null> {
    const result = await this.prisma.account.updateMany({ where: { id }, data: changes });
    return result.count === 0 ? null : this.find(id);
  }

  /** Adds to the balance atomically; null when the account does not exist. */
  async credit(id: string, amountCents: bigint): Promise<bigint | null> {
    const rows = await this.prisma.$queryRaw<{ balance_cents: bigint }[]>`
      UPDATE accounts SET balance_cents = balance_cents + ${amountCents} WHERE id = ${id} RETURNING balance_cents`;
    return rows[0]?.balance_cents ?? null;
  }
}
