import type { EventCause } from '@switchboard/messaging';
import type { LockedAccount } from '../ledger/ledger.repository';

/**
 * What talk time needs from billing. Billing imports talk time (the billing cycle renews allowances), so talk
 * time declares what it needs here and billing's `BillingAdapter` provides it: the two folders do not import each
 * other in a circle.
 */
export interface TalkTimeBilling {
  /** The calendar month (UTC) a moment falls in, as `YYYY-MM`: the allowance period. */
  allowancePeriod(at: Date): string;
  /**
   * Whether the account, as read under its lock, calls for `afterCharge`: an auto-top-up, or a change of its
   * low-balance mark (`billing.balance_low`, docs/adr/0131-auto-top-up-and-stripe.md).
   */
  belowTopUpThreshold(account: LockedAccount): boolean;
  /** After-commit hook: a talk-time charge committed that left the balance below the threshold. */
  afterCharge(accountId: string, cause: EventCause): Promise<unknown>;
}

export const TALK_TIME_BILLING = Symbol('TALK_TIME_BILLING');
