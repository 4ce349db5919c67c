import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EventCause } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { LedgerRepository, type LockedAccount } from '../ledger/ledger.repository';
import { centsToMillicents } from '../money/money';
import { PAYMENT_GATEWAY, PaymentDeclined, type PaymentGateway } from '../payments/payment-gateway.port';
import { LOCKING_TX, NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { AutoTopUpAttemptsRepository } from './auto-top-up-attempts.repository';
import { OverdueSettlement } from './overdue-settlement';

/** An attempt pending longer than this is presumed abandoned (a crash mid-payment) and is driven to its end. */
export const ATTEMPT_LEASE_MS = 5 * 60_000;

export type TopUpResult = 'not_configured' | 'not_needed' | 'in_progress' | 'succeeded' | 'failed';

/**
 * Whether the account, as read under its lock, calls for an auto-top-up: one is configured and the balance is
 * below its threshold. A charge that leaves the balance so is a drop; `afterCharge` decides on the same rule.
 */
export function belowTopUpThreshold(account: Pick<LockedAccount, 'balance_millicents' | 'auto_top_up_threshold_cents' | 'auto_top_up_amount_cents'>): boolean {
  if (account.auto_top_up_threshold_cents === null || account.auto_top_up_amount_cents === null) return false;
  return account.balance_millicents < centsToMillicents(account.auto_top_up_threshold_cents);
}

/**
 * Auto-top-up (spec part 8): when a charge leaves the balance below the account's threshold, its amount is
 * charged through the payment port and credited to the ledger. One attempt at a time per account; the attempt id
 * is both the payment's idempotency key and the ledger reference, so a payment is never charged or credited
 * twice. A declined payment is logged and tried again at the next drop, with a new attempt
 * (docs/adr/0014-auto-top-up.md).
 */
@Injectable()
export class AutoTopUpService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly attempts: AutoTopUpAttemptsRepository,
    private readonly ledger: LedgerRepository,
    private readonly settlement: OverdueSettlement,
    @Inject(PAYMENT_GATEWAY) private readonly payments: PaymentGateway,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Called after every charge. Tops up when the balance is below the threshold, or when `uncoveredCharge` (a
   * monthly charge the balance cannot cover counts as a drop whatever the threshold).
   */
  async afterCharge(accountId: string, cause: EventCause, options: { uncoveredCharge?: boolean } = {}): Promise<TopUpResult> {
    const now = new Date();
    const start = await this.transactions.run(async (tx) => {
      const account = await this.ledger.lockAccount(tx, accountId);
      if (!account || account.auto_top_up_threshold_cents === null || account.auto_top_up_amount_cents === null) return 'not_configured' as const;
      if (!belowTopUpThreshold(account) && !options.uncoveredCharge) return 'not_needed' as const;
      const live = await this.attempts.countLive(tx, accountId, new Date(now.getTime() - ATTEMPT_LEASE_MS));
      if (live > 0) return 'in_progress' as const;
      return this.attempts.start(tx, { id: randomUUID(), account_id: accountId, amount_cents: account.auto_top_up_amount_cents, created_at: now });
    }, LOCKING_TX);
    if (typeof start === 'string') return start;
    return this.pay(start, cause);
  }

  /** Drives attempts left pending past their lease to their end (same idempotency key: never charged twice). */
  async recoverAbandoned(cause: EventCause, now: Date = new Date()): Promise<number> {
    const stale = await this.attempts.findAbandoned(new Date(now.getTime() - ATTEMPT_LEASE_MS), 100);
    for (const attempt of stale) await this.pay(attempt, cause);
    return stale.length;
  }

  private async pay(attempt: { id: string; account_id: string; amount_cents: number }, cause: EventCause): Promise<TopUpResult> {
    let paymentId: string;
    try {
      ({ paymentId } = await this.payments.charge({
        customerRef: attempt.account_id,
        amountCents: attempt.amount_cents,
        idempotencyKey: attempt.id,
        description: 'Switchboard auto-top-up',
      }));
    } catch (error) {
      if (!(error instanceof PaymentDeclined)) {
        // The outcome is unknown (the processor may have charged): the attempt stays pending and is asked again,
        // with the same idempotency key, once its lease ends; no new attempt starts meanwhile.
        this.logger.warn({ account_id: attempt.account_id, attempt_id: attempt.id, err: error }, 'auto-top-up payment outcome unknown; will ask again');
        return 'in_progress';
      }
      await this.attempts.markFailed(attempt.id, (error as Error).message.slice(0, 500));
      this.logger.warn({ account_id: attempt.account_id, attempt_id: attempt.id, err: error }, 'auto-top-up payment failed; will try again at the next drop');
      return 'failed';
    }
    const credited = await this.transactions.run(async (tx) => {
      if (!(await this.attempts.markSucceeded(tx, attempt.id, paymentId))) return false;
      await this.ledger.post(tx, {
        accountId: attempt.account_id,
        kind: 'auto_top_up',
        reference: `auto_top_up:${attempt.id}`,
        amountMillicents: centsToMillicents(attempt.amount_cents),
        description: `Auto-top-up of $${(attempt.amount_cents / 100).toFixed(2)} (payment ${paymentId})`,
      });
      return true;
    }, LOCKING_TX);
    if (credited) {
      this.logger.info({ account_id: attempt.account_id, attempt_id: attempt.id, amount_cents: attempt.amount_cents }, 'auto-top-up credited');
      await this.settlement.settle(attempt.account_id, cause);
    }
    return 'succeeded';
  }
}
