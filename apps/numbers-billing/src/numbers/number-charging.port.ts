import type { EventCause } from '@switchboard/messaging';

/**
 * What provisioning needs from billing to charge a new number's first month. Billing imports numbers (it charges,
 * suspends and releases them), so numbers declares what it needs here and billing's `BillingAdapter` provides it:
 * the two folders do not import each other in a circle.
 */
export interface NumberCharging {
  /** When the second month of a number provisioned at `provisionedAt` starts: its first `next_charge_at`. */
  secondMonthStart(provisionedAt: Date): Date;
  /** The ledger reference of the number's first month, the one the billing cycle would give it. */
  firstMonthReference(numberId: bigint): string;
  /** After-commit hook: the first month's charge committed; tops the account up when it now calls for it. */
  afterCharge(accountId: string, cause: EventCause): Promise<unknown>;
}

export const NUMBER_CHARGING = Symbol('NUMBER_CHARGING');
