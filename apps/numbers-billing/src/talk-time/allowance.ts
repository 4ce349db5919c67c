import { Inject, Injectable } from '@nestjs/common';
import type { Tier } from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import type { LockedAccount } from '../ledger/ledger.repository';
import { TIER_TERMS } from '../money/money';
import { NumberLifecycle } from '../numbers/number-lifecycle';
import type { Tx } from '../prisma/numbers-billing-prisma';
import { TALK_TIME_BILLING, type TalkTimeBilling } from './talk-time-billing.port';

/** A month's usage as a talk-time charge returned it (TalkTimeRepository). */
export interface KnownUsage {
  period: string;
  seconds: bigint;
}

/**
 * A tier's monthly minutes are an allowance of answered talk time per calendar month (UTC). Once used up, the
 * agent stops answering the account's numbers (`answering: false`; calls ring through to `business_phone`) until
 * the next month or a tier with more minutes (docs/adr/0013-money-and-talk-time.md).
 */
@Injectable()
export class TalkTimeAllowance {
  constructor(
    private readonly lifecycle: NumberLifecycle,
    @Inject(TALK_TIME_BILLING) private readonly billing: TalkTimeBilling,
  ) {}

  async usage(tx: Tx, accountId: string, period: string): Promise<bigint> {
    const row = await tx.talkTimeUsage.findUnique({ where: { account_id_period: { account_id: accountId, period } } });
    return row?.seconds ?? 0n;
  }

  /**
   * Brings the account's answering state in line with its usage of the current month (`now`'s) under its tier:
   * marks the allowance used up, or renews it (a new month, a bigger tier). Publishes `number.updated` for its
   * active numbers when answering changes. The account row must be locked by the caller. `known` is a usage the
   * caller read or wrote in this transaction (under the same lock, so still current): it saves reading it again.
   */
  async reconcile(
    tx: Tx,
    account: LockedAccount,
    now: Date,
    cause: EventCause,
    known?: KnownUsage,
  ): Promise<'exhausted' | 'renewed' | 'unchanged'> {
    const period = this.billing.allowancePeriod(now);
    const used = known?.period === period ? known.seconds : await this.usage(tx, account.id, period);
    const wanted = exhaustedPeriod(account, period, used);
    if (account.allowance_exhausted_period === wanted) return 'unchanged';
    await tx.account.update({ where: { id: account.id }, data: { allowance_exhausted_period: wanted } });
    account.allowance_exhausted_period = wanted;
    await this.lifecycle.answeringChanged(tx, account.id, account, cause);
    return wanted !== null ? 'exhausted' : 'renewed';
  }
}

/**
 * The month the account's allowance is used up in, when `used` seconds of `period` exhaust it under its tier. The
 * quick charge checks the same in SQL (`TalkTimeRepository.chargeUnlessAnsweringChanges`, from `allowanceSeconds`);
 * billing.int-spec holds the two to each other at the allowance's edge.
 */
function exhaustedPeriod(account: LockedAccount, period: string, used: bigint): string | null {
  const allowance = allowanceSeconds(account.tier as Tier);
  return allowance !== null && used >= allowance ? period : null;
}

/** A tier's monthly allowance in seconds of talk time; null when it has none to use up. */
export function allowanceSeconds(tier: Tier): bigint | null {
  const minutes = TIER_TERMS[tier].monthlyMinutes;
  return minutes === null ? null : BigInt(minutes * 60);
}
