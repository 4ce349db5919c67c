import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EventCause } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import {
  BalanceLowEvent,
  BILLING_BALANCE_LOW_EVENT,
  BILLING_TOP_UP_FAILED_EVENT,
  TopUpFailedEvent,
  formatCentsAsDollars,
} from '@switchboard/contracts';
import { LedgerRepository, type LockedAccount } from '../ledger/ledger.repository';
import {
  centsToMillicents,
  millicentsToCents,
  MILLICENTS_PER_CENT,
  NUMBER_MONTHLY_PRICE_MILLICENTS,
} from '../money/money';
import { formatNumberId } from '../numbers/number-id';
import { NumbersRepository } from '../numbers/numbers.repository';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import {
  PAYMENT_GATEWAY,
  PaymentDeclined,
  PaymentPending,
  type PaymentGateway,
} from '../payments/payment-gateway.port';
import { LOCKING_TX, NumbersBillingTransactions, type Tx } from '../prisma/numbers-billing-prisma';
import { AutoTopUpAttemptsRepository } from './auto-top-up-attempts.repository';
import { OverdueSettlement } from './overdue-settlement';

/** An attempt pending longer than this is presumed abandoned (a crash mid-payment) and is driven to its end. */
export const ATTEMPT_LEASE_MS = 5 * 60_000;

export type TopUpResult = 'not_configured' | 'not_needed' | 'in_progress' | 'succeeded' | 'failed';

/**
 * Whether the account, as read under its lock, calls for an auto-top-up: one is configured and the balance is
 * below its threshold. A charge that leaves the balance so is a drop; `afterCharge` decides on the same rule.
 */
export function belowTopUpThreshold(
  account: Pick<LockedAccount, 'balance_millicents' | 'auto_top_up_threshold_cents' | 'auto_top_up_amount_cents'>,
): boolean {
  if (account.auto_top_up_threshold_cents === null || account.auto_top_up_amount_cents === null) return false;
  return account.balance_millicents < centsToMillicents(account.auto_top_up_threshold_cents);
}

/** The low-balance threshold of an account without auto-top-up: one month of one number ($5.00). */
export const LOW_BALANCE_THRESHOLD_CENTS = Number(NUMBER_MONTHLY_PRICE_MILLICENTS / MILLICENTS_PER_CENT);

/**
 * The account's low-balance threshold in cents, or null when it has none: an account with auto-top-up is topped up
 * instead (a failed payment is `billing.top_up_failed`), so only an account without it is told its balance is low
 * (docs/adr/0131-auto-top-up-and-stripe.md).
 */
export function lowBalanceThresholdCents(
  account: Pick<LockedAccount, 'auto_top_up_threshold_cents' | 'auto_top_up_amount_cents'>,
): number | null {
  return account.auto_top_up_threshold_cents === null || account.auto_top_up_amount_cents === null
    ? LOW_BALANCE_THRESHOLD_CENTS
    : null;
}

/** Whether the balance is below the account's low-balance threshold (never, with auto-top-up). */
export function belowLowBalanceThreshold(
  account: Pick<LockedAccount, 'balance_millicents' | 'auto_top_up_threshold_cents' | 'auto_top_up_amount_cents'>,
): boolean {
  const threshold = lowBalanceThresholdCents(account);
  return threshold !== null && account.balance_millicents < centsToMillicents(threshold);
}

/** Whether the low-balance mark (`balance_low_since`) no longer says what the balance is: a crossing, either way. */
export function balanceLowMarkChanges(
  account: Pick<
    LockedAccount,
    'balance_millicents' | 'auto_top_up_threshold_cents' | 'auto_top_up_amount_cents' | 'balance_low_since'
  >,
): boolean {
  return belowLowBalanceThreshold(account) !== (account.balance_low_since !== null);
}

/**
 * Auto-top-up (spec part 8): when a charge leaves the balance below the account's threshold, its amount is
 * charged through the payment port and credited to the ledger. One attempt at a time per account; the attempt id
 * is both the payment's idempotency key and the ledger reference, so a payment is never charged or credited
 * twice. A declined payment is logged and tried again at the next drop, with a new attempt
 * (docs/adr/0131-auto-top-up-and-stripe.md).
 */
@Injectable()
export class AutoTopUpService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly attempts: AutoTopUpAttemptsRepository,
    private readonly ledger: LedgerRepository,
    private readonly settlement: OverdueSettlement,
    private readonly numbers: NumbersRepository,
    private readonly outbox: NumbersOutbox,
    @Inject(PAYMENT_GATEWAY) private readonly payments: PaymentGateway,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Called after every charge. Tops up when the balance is below the threshold, or when `uncoveredCharge` (a
   * monthly charge the balance cannot cover counts as a drop whatever the threshold).
   */
  async afterCharge(
    accountId: string,
    cause: EventCause,
    options: { uncoveredCharge?: boolean } = {},
  ): Promise<TopUpResult> {
    const now = new Date();
    let told = false;
    const start = await this.transactions.run(async (tx) => {
      const account = await this.ledger.lockAccount(tx, accountId);
      if (account) told = await this.watchBalance(tx, account, now, cause);
      if (!account || account.auto_top_up_threshold_cents === null || account.auto_top_up_amount_cents === null)
        return 'not_configured' as const;
      if (!belowTopUpThreshold(account) && !options.uncoveredCharge) return 'not_needed' as const;
      const live = await this.attempts.countLive(tx, accountId, new Date(now.getTime() - ATTEMPT_LEASE_MS));
      if (live > 0) return 'in_progress' as const;
      return this.attempts.start(tx, {
        id: randomUUID(),
        account_id: accountId,
        amount_cents: account.auto_top_up_amount_cents,
        created_at: now,
      });
    }, LOCKING_TX);
    if (told) this.outbox.kick();
    if (typeof start === 'string') return start;
    return this.pay(start, cause);
  }

  /**
   * `billing.balance_low`, once per crossing: when the balance is below the account's low-balance threshold and was
   * not already (`balance_low_since` unset), the event is written and the mark set; at or above it, the mark is
   * cleared so the next crossing tells again. In the caller's transaction, under the account's lock. True when an
   * event was written.
   */
  private async watchBalance(tx: Tx, account: LockedAccount, now: Date, cause: EventCause): Promise<boolean> {
    const threshold = lowBalanceThresholdCents(account);
    if (threshold === null || !belowLowBalanceThreshold(account)) {
      if (account.balance_low_since !== null) await this.ledger.setBalanceLow(tx, account.id, null);
      return false;
    }
    if (account.balance_low_since !== null) return false;
    await this.ledger.setBalanceLow(tx, account.id, now);
    const recipients = await this.numbers.optedIn(tx, account.id, BILLING_BALANCE_LOW_EVENT);
    await this.outbox.write(
      tx,
      BalanceLowEvent,
      {
        account_id: account.id,
        number_ids: recipients.map(formatNumberId),
        balance_cents: Number(millicentsToCents(account.balance_millicents)),
        threshold_cents: threshold,
        occurred_at: now.toISOString(),
      },
      cause,
    );
    this.logger.info(
      { account_id: account.id, recipients: recipients.length },
      'balance below the low-balance threshold',
    );
    return true;
  }

  /** Drives attempts left pending past their lease to their end (same idempotency key: never charged twice). */
  async recoverAbandoned(cause: EventCause, now: Date = new Date()): Promise<number> {
    const stale = await this.attempts.findAbandoned(new Date(now.getTime() - ATTEMPT_LEASE_MS), 100);
    for (const attempt of stale) await this.pay(attempt, cause);
    return stale.length;
  }

  /**
   * The processor's later word on an attempt it left unfinished (Stripe's webhook, docs/adr/0131): paid or declined,
   * settled exactly as an immediate answer would be. An attempt already ended, or unknown, is left as it is (the same
   * webhook twice changes nothing).
   */
  async settleFromProcessor(
    attemptId: string,
    outcome: { paymentId: string } | { declined: string },
    cause: EventCause,
  ): Promise<TopUpResult | 'unknown_attempt'> {
    const attempt = await this.attempts.find(attemptId);
    if (!attempt) return 'unknown_attempt';
    if (attempt.status !== 'pending') return attempt.status === 'succeeded' ? 'succeeded' : 'failed';
    return 'paymentId' in outcome
      ? this.succeeded(attempt, outcome.paymentId, cause)
      : this.declined(attempt, outcome.declined, cause);
  }

  private async pay(
    attempt: { id: string; account_id: string; amount_cents: number; created_at: Date },
    cause: EventCause,
  ): Promise<TopUpResult> {
    let paymentId: string;
    try {
      ({ paymentId } = await this.payments.charge({
        customerRef: attempt.account_id,
        amountCents: attempt.amount_cents,
        idempotencyKey: attempt.id,
        description: 'Switchboard auto-top-up',
        attemptedAt: attempt.created_at,
      }));
    } catch (error) {
      if (error instanceof PaymentDeclined) return this.declined(attempt, error.message, cause);
      // Pending: the processor took it and will say how it ended (settleFromProcessor). Unknown: it may have charged.
      // Either way the attempt stays pending and is asked again, with the same idempotency key, once its lease ends;
      // no new attempt starts meanwhile.
      this.logger.warn(
        { account_id: attempt.account_id, attempt_id: attempt.id, err: error },
        error instanceof PaymentPending
          ? 'auto-top-up payment is being processed; the processor will say how it ends'
          : 'auto-top-up payment outcome unknown; will ask again',
      );
      return 'in_progress';
    }
    return this.succeeded(attempt, paymentId, cause);
  }

  private async declined(
    attempt: { id: string; account_id: string; amount_cents: number; created_at: Date },
    reason: string,
    cause: EventCause,
  ): Promise<TopUpResult> {
    const failedAt = new Date();
    const ended = await this.transactions.run(async (tx) => {
      if (!(await this.attempts.markFailed(tx, attempt.id, reason.slice(0, 500), failedAt))) return false;
      // The processor's message stays in the attempt row: the event says only `declined`.
      const recipients = await this.numbers.optedIn(tx, attempt.account_id, BILLING_TOP_UP_FAILED_EVENT);
      await this.outbox.write(
        tx,
        TopUpFailedEvent,
        {
          account_id: attempt.account_id,
          number_ids: recipients.map(formatNumberId),
          attempt_id: attempt.id,
          amount_cents: attempt.amount_cents,
          reason: 'declined',
          attempted_at: attempt.created_at.toISOString(),
          occurred_at: failedAt.toISOString(),
        },
        cause,
      );
      return true;
    });
    if (ended) this.outbox.kick();
    this.logger.warn(
      { account_id: attempt.account_id, attempt_id: attempt.id, reason },
      'auto-top-up payment failed; will try again at the next drop',
    );
    return 'failed';
  }

  private async succeeded(
    attempt: { id: string; account_id: string; amount_cents: number },
    paymentId: string,
    cause: EventCause,
  ): Promise<TopUpResult> {
    const credited = await this.transactions.run(async (tx) => {
      if (!(await this.attempts.markSucceeded(tx, attempt.id, paymentId))) return false;
      await this.ledger.post(tx, {
        accountId: attempt.account_id,
        kind: 'auto_top_up',
        reference: `auto_top_up:${attempt.id}`,
        amountMillicents: centsToMillicents(attempt.amount_cents),
        description: `Auto-top-up of ${formatCentsAsDollars(attempt.amount_cents)} (payment ${paymentId})`,
      });
      return true;
    }, LOCKING_TX);
    if (credited) {
      this.logger.info(
        { account_id: attempt.account_id, attempt_id: attempt.id, amount_cents: attempt.amount_cents },
        'auto-top-up credited',
      );
      await this.settlement.settle(attempt.account_id, cause);
    }
    return 'succeeded';
  }
}
