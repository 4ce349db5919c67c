import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { BillingRunResult } from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { LedgerRepository } from '../ledger/ledger.repository';
import { NumbersService } from '../numbers/numbers.service';
import { NumberLifecycle } from '../numbers/number-lifecycle';
import { NumbersRepository } from '../numbers/numbers.repository';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { LOCKING_TX, NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { TalkTimeAllowance } from '../talk-time/allowance';
import { AutoTopUpService } from './auto-top-up.service';
import { GRACE_PERIOD_MS, allowancePeriod } from './billing-periods';
import { MonthlyCharges } from './monthly-charges';

/**
 * The monthly billing cycle (spec part 3), run on a schedule and by the operator "as if the clock read `now`":
 * 1. every active number with a period started by `now` is charged, or becomes past_due when the balance cannot
 *    cover it (after one auto-top-up try, when the account has auto-top-up);
 * 2. every past_due number is released once 7 days passed since it became past_due, else pays what it owes if
 *    the balance now covers it and is active again;
 * 3. allowances of past months are renewed; provider releases and payments left unfinished are retried.
 * Each number is handled in its own transaction with its account and itself locked, and each period has a unique
 * ledger reference: any number of runs, at once or one after another, charge a period once.
 */
@Injectable()
export class BillingCycleService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly ledger: LedgerRepository,
    private readonly numbers: NumbersRepository,
    private readonly numbersService: NumbersService,
    private readonly lifecycle: NumberLifecycle,
    private readonly charges: MonthlyCharges,
    private readonly allowance: TalkTimeAllowance,
    private readonly autoTopUp: AutoTopUpService,
    private readonly outbox: NumbersOutbox,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(now: Date, correlationId: string = `billing-run-${randomUUID()}`): Promise<BillingRunResult> {
    const cause: EventCause = { correlationId };
    const result: BillingRunResult = { charged: 0, past_due: 0, released: 0 };

    const due = await this.numbers.findDue(now);
    for (const { id, account_id } of due) {
      const first = await this.chargeOne(account_id, id, now, cause, false);
      result.charged += first.charged;
      if (first.uncovered && first.canTopUp) {
        await this.autoTopUp.afterCharge(account_id, cause, { uncoveredCharge: true });
        const second = await this.chargeOne(account_id, id, now, cause, true);
        result.charged += second.charged;
        if (second.becamePastDue) result.past_due += 1;
      } else if (first.becamePastDue) {
        result.past_due += 1;
      }
      if (first.charged > 0)
        await this.autoTopUp
          .afterCharge(account_id, cause)
          .catch((err) => this.logger.error({ err }, 'auto-top-up check failed'));
    }

    const pastDue = await this.numbers.findPastDue();
    for (const { id, account_id } of pastDue) {
      const outcome = await this.settleOrRelease(account_id, id, now, cause);
      if (outcome.released) {
        result.released += 1;
        await this.numbersService.releaseAtProvider(outcome.released);
      }
      result.charged += outcome.charged;
    }

    await this.renewAllowances(now, cause);
    await this.numbersService.retryProviderReleases();
    await this.autoTopUp.recoverAbandoned(cause);
    this.outbox.kick();
    this.logger.info({ now: now.toISOString(), ...result }, 'billing cycle ran');
    return result;
  }

  private chargeOne(accountId: string, numberId: bigint, now: Date, cause: EventCause, lastTry: boolean) {
    return this.transactions.run(async (tx) => {
      const account = await this.ledger.lockAccount(tx, accountId);
      const number = await this.numbers.lock(tx, numberId);
      const none = { charged: 0, uncovered: false, becamePastDue: false, canTopUp: false };
      // Another run (or a release) got here first.
      if (!account || !number || number.status !== 'active' || number.next_charge_at.getTime() > now.getTime())
        return none;
      const canTopUp = !lastTry && account.auto_top_up_amount_cents !== null;
      const outcome = await this.charges.chargeDue(tx, account, number, now, cause, {
        pastDueWhenUncovered: !canTopUp,
      });
      return { charged: outcome.charged, uncovered: outcome.uncovered, becamePastDue: outcome.becamePastDue, canTopUp };
    }, LOCKING_TX);
  }

  private settleOrRelease(accountId: string, numberId: bigint, now: Date, cause: EventCause) {
    return this.transactions.run(async (tx) => {
      const account = await this.ledger.lockAccount(tx, accountId);
      const number = await this.numbers.lock(tx, numberId);
      if (!account || !number || number.status !== 'past_due') return { charged: 0, released: null };
      const since = number.past_due_since ?? now;
      if (since.getTime() + GRACE_PERIOD_MS <= now.getTime()) {
        return { charged: 0, released: await this.lifecycle.release(tx, number, account, now, cause) };
      }
      const outcome = await this.charges.chargeDue(tx, account, number, now, cause, { pastDueWhenUncovered: false });
      return { charged: outcome.charged, released: null };
    }, LOCKING_TX);
  }

  /** Accounts whose allowance ran out in an earlier month answer again in `now`'s month. */
  private async renewAllowances(now: Date, cause: EventCause): Promise<void> {
    const period = allowancePeriod(now);
    const accounts = await this.ledger.withAllowanceExhaustedBefore(period);
    for (const { id } of accounts) {
      await this.transactions.run(async (tx) => {
        const account = await this.ledger.lockAccount(tx, id);
        if (account) await this.allowance.reconcile(tx, account, now, cause);
      }, LOCKING_TX);
    }
  }
}
