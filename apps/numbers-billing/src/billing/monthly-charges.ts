import { Injectable } from '@nestjs/common';
import { formatUtcTime } from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import { LedgerRepository, type LockedAccount } from '../ledger/ledger.repository';
import { NUMBER_MONTHLY_PRICE_MILLICENTS } from '../money/money';
import { NumberLifecycle } from '../numbers/number-lifecycle';
import { formatNumberId } from '../numbers/number-id';
import type { NumberRecord } from '../numbers/number-record';
import { NumbersRepository } from '../numbers/numbers.repository';
import type { Tx } from '../prisma/numbers-billing-prisma';
import { periodStart } from './billing-periods';

export interface ChargeOutcome {
  number: NumberRecord;
  /** Periods charged now. */
  charged: number;
  /** A period was due that the balance could not cover. */
  uncovered: boolean;
  /** The number moved active -> past_due. */
  becamePastDue: boolean;
  /** The number moved past_due -> active. */
  reactivated: boolean;
}

/** The ledger reference of a number's monthly period: unique, so a period is charged at most once. */
export function monthReference(numberId: bigint, period: number): string {
  return `number_month:${formatNumberId(numberId)}:${period}`;
}

/**
 * $5 per number per month from its provisioning date (spec parts 3 and 8). Runs with the account and the number
 * locked by the caller: periods are charged in order, each once (the ledger reference is unique per number and
 * period), and only when the balance covers the whole price (a balance never goes negative for a number).
 */
@Injectable()
export class MonthlyCharges {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly numbers: NumbersRepository,
    private readonly lifecycle: NumberLifecycle,
  ) {}

  /**
   * Charges every period of the number that started by `now`; a past_due number first pays the period it owes,
   * whatever the clock says, and is active again once nothing due is unpaid (docs/adr/0013-money-and-talk-time.md).
   * When a due period cannot be covered, an active number becomes past_due if `pastDueWhenUncovered`.
   */
  async chargeDue(
    tx: Tx,
    account: LockedAccount,
    number: NumberRecord,
    now: Date,
    cause: EventCause,
    options: { pastDueWhenUncovered: boolean },
  ): Promise<ChargeOutcome> {
    const outcome: ChargeOutcome = { number, charged: 0, uncovered: false, becamePastDue: false, reactivated: false };
    if (number.status === 'released') return outcome;
    let balance = account.balance_millicents;
    let owesFailedPeriod = number.status === 'past_due';
    let current = number;
    while (owesFailedPeriod || current.next_charge_at.getTime() <= now.getTime()) {
      owesFailedPeriod = false;
      if (balance < NUMBER_MONTHLY_PRICE_MILLICENTS) {
        outcome.uncovered = true;
        break;
      }
      const period = current.periods_charged;
      const after = await this.ledger.post(tx, {
        accountId: account.id,
        kind: 'number_month',
        reference: monthReference(current.id, period),
        amountMillicents: -NUMBER_MONTHLY_PRICE_MILLICENTS,
        description: `${formatNumberId(current.id)} (${current.phone_number}) month ${period + 1}, from ${formatUtcTime(periodStart(current.created_at, period))}`,
      });
      if (after !== null) {
        balance = after;
        outcome.charged += 1;
      }
      current = await this.numbers.advancePeriod(
        tx,
        current.id,
        period + 1,
        periodStart(current.created_at, period + 1),
      );
    }
    account.balance_millicents = balance;
    if (outcome.uncovered && current.status === 'active' && options.pastDueWhenUncovered) {
      current = await this.lifecycle.markPastDue(tx, current, account, now, cause);
      outcome.becamePastDue = true;
    } else if (!outcome.uncovered && current.status === 'past_due') {
      current = await this.lifecycle.reactivate(tx, current, account, cause);
      outcome.reactivated = true;
    }
    outcome.number = current;
    return outcome;
  }
}
