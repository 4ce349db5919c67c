import { Injectable } from '@nestjs/common';
import type { EventCause } from '@switchboard/messaging';
import { LedgerRepository } from '../ledger/ledger.repository';
import { NumbersRepository } from '../numbers/numbers.repository';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { LOCKING_TX, NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { GRACE_PERIOD_MS } from './billing-periods';
import { MonthlyCharges } from './monthly-charges';

/**
 * When money arrives (operator credit, auto-top-up), the account's past_due numbers pay what they owe at once,
 * oldest number first, and those fully paid are active again: the agent answers without waiting for the next
 * billing run (docs/adr/0013-money-and-talk-time.md).
 */
@Injectable()
export class OverdueSettlement {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly ledger: LedgerRepository,
    private readonly numbers: NumbersRepository,
    private readonly charges: MonthlyCharges,
    private readonly outbox: NumbersOutbox,
  ) {}

  /** Returns how many periods were charged and how many numbers became active again. */
  async settle(
    accountId: string,
    cause: EventCause,
    now: Date = new Date(),
  ): Promise<{ charged: number; reactivated: number }> {
    const result = await this.transactions.run(async (tx) => {
      const account = await this.ledger.lockAccount(tx, accountId);
      if (!account) return { charged: 0, reactivated: 0 };
      const pastDue = await this.numbers.lockAccountNumbers(tx, accountId, ['past_due']);
      let charged = 0;
      let reactivated = 0;
      for (const number of pastDue) {
        // Past its grace: released by the next cycle, not revived by late money.
        if (number.past_due_since && number.past_due_since.getTime() + GRACE_PERIOD_MS <= now.getTime()) continue;
        const outcome = await this.charges.chargeDue(tx, account, number, now, cause, { pastDueWhenUncovered: false });
        charged += outcome.charged;
        if (outcome.reactivated) reactivated += 1;
      }
      return { charged, reactivated };
    }, LOCKING_TX);
    if (result.reactivated > 0) this.outbox.kick();
    return result;
  }
}
