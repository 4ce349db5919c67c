import { Injectable } from '@nestjs/common';
import type { EventCause } from '@switchboard/messaging';
import type { LockedAccount } from '../ledger/ledger.repository';
import type { NumberCharging } from '../numbers/number-charging.port';
import type { TalkTimeBilling } from '../talk-time/talk-time-billing.port';
import { AutoTopUpService, balanceLowMarkChanges, belowTopUpThreshold, type TopUpResult } from './auto-top-up.service';
import { allowancePeriod, periodStart } from './billing-periods';
import { monthReference } from './monthly-charges';

/** Billing's rules and its auto-top-up hook, as the numbers and talk-time folders see them through their ports. */
@Injectable()
export class BillingAdapter implements NumberCharging, TalkTimeBilling {
  constructor(private readonly autoTopUp: AutoTopUpService) {}

  secondMonthStart(provisionedAt: Date): Date {
    return periodStart(provisionedAt, 1);
  }

  firstMonthReference(numberId: bigint): string {
    return monthReference(numberId, 0);
  }

  allowancePeriod(at: Date): string {
    return allowancePeriod(at);
  }

  belowTopUpThreshold(account: LockedAccount): boolean {
    return belowTopUpThreshold(account) || balanceLowMarkChanges(account);
  }

  afterCharge(accountId: string, cause: EventCause): Promise<TopUpResult> {
    return this.autoTopUp.afterCharge(accountId, cause);
  }
}
