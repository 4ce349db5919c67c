import { Inject, Injectable } from '@nestjs/common';
import { TIERS, type CallCompletedData, type EventEnvelope, type Tier } from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { LockedAccount } from '../ledger/ledger.repository';
import { talkTimeCharge } from '../money/money';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { LOCKING_TX, NumbersBillingTransactions, type Tx } from '../prisma/numbers-billing-prisma';
import { TalkTimeAllowance, type KnownUsage } from './allowance';
import { TALK_TIME_BILLING, type TalkTimeBilling } from './talk-time-billing.port';
import { talkTimeDescription } from './talk-time-adjustment';
import { TalkTimeRepository, type TalkTimeCharge, type TierCharge } from './talk-time.repository';

export type TalkTimeOutcome = 'billed' | 'duplicate' | 'unknown_account' | 'nothing_to_bill';

/** The ledger reference of a call's talk time: unique, so a call is billed once however often it is delivered. */
export function talkTimeReference(callSid: string): string {
  return `talk_time:${callSid}`;
}

/**
 * Talk time (spec part 8): each completed call is billed by the second at the account's tier rate, once per call
 * SID, and counted against the month's allowance of the month the call started in.
 */
@Injectable()
export class TalkTimeService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly talkTime: TalkTimeRepository,
    private readonly allowance: TalkTimeAllowance,
    private readonly outbox: NumbersOutbox,
    @Inject(TALK_TIME_BILLING) private readonly billing: TalkTimeBilling,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async bill(event: EventEnvelope<CallCompletedData>): Promise<TalkTimeOutcome> {
    const call = event.data;
    if (call.duration_sec === 0) return 'nothing_to_bill';
    const cause: EventCause = { correlationId: event.correlation_id, causationId: event.id };
    // Nearly every call is a charge and a usage count: one statement, a transaction of its own. The rare one that
    // uses up the month's allowance (or follows a renewal, or was reported late) may change the account's answering,
    // which writes events through Prisma: that statement aborts itself, keeping nothing, and the call is billed in
    // full, in a Prisma transaction that takes the account's lock anew.
    const billed = (await this.billQuickly(call)) ?? (await this.billInFull(call, cause));
    if (billed.outcome === 'unknown_account')
      this.logger.warn(
        { call_sid: call.call_sid, account_id: call.account_id },
        'call.completed for an unknown account; not billed',
      );
    if (billed.outcome === 'billed') {
      // Only a change of answering writes events (number.updated); else the relay has nothing new to publish.
      if (billed.answeringChanged) this.outbox.kick();
      // The account was read under the lock this charge was made with: when the balance it left is not below the
      // threshold (or no auto-top-up is set), this charge is no drop and there is nothing to check again. A later
      // charge that does drop it sees so in its own transaction, as do concurrent ones (each reads the balance
      // after the ones before it).
      if (this.billing.belowTopUpThreshold(billed.account)) {
        await this.billing
          .afterCharge(call.account_id, cause)
          .catch((err) => this.logger.error({ err, account_id: call.account_id }, 'auto-top-up check failed'));
      }
    }
    return billed.outcome;
  }

  /**
   * The charge and the usage in one statement of its own (ADR 0013), which checks that the call leaves the account's
   * answering as it was and otherwise keeps nothing: undefined, to be billed in full.
   */
  private async billQuickly(call: CallCompletedData): Promise<Billed | undefined> {
    const charged = await this.talkTime.chargeUnlessAnsweringChanges(
      this.talkTimeCharge(call),
      this.billing.allowancePeriod(new Date()),
    );
    if (charged.kind === 'answering_changes') return undefined;
    if (charged.kind !== 'charged') return { outcome: charged.kind };
    return {
      outcome: 'billed',
      account: { ...charged.account, balance_millicents: charged.balanceAfter },
      answeringChanged: false,
    };
  }

  /** The charge, the usage and the answering state in one Prisma transaction. */
  private billInFull(call: CallCompletedData, cause: EventCause): Promise<Billed> {
    return this.transactions.run(async (tx): Promise<Billed> => {
      const charged = await this.charge(tx, call);
      if (charged.outcome !== 'billed') return charged;
      // Usage is judged for the current month; a call reported late adds to its own month's usage only. The total
      // just written is the current month's when the call started this month (nearly always): not read again.
      const answering = await this.allowance.reconcile(tx, charged.account, new Date(), cause, charged.usage);
      return { outcome: 'billed', account: charged.account, answeringChanged: answering !== 'unchanged' };
    }, LOCKING_TX);
  }

  /** Locks the account, posts the call's charge once per call SID and adds its seconds to its month's usage. */
  private async charge(
    tx: Tx,
    call: CallCompletedData,
  ): Promise<
    { outcome: 'unknown_account' | 'duplicate' } | { outcome: 'billed'; account: LockedAccount; usage: KnownUsage }
  > {
    const charge = this.talkTimeCharge(call);
    const charged = await this.talkTime.charge(tx, charge);
    if (charged.kind !== 'charged') return { outcome: charged.kind };
    const account = { ...charged.account, balance_millicents: charged.balanceAfter };
    return { outcome: 'billed', account, usage: { period: charge.period, seconds: charged.usageSeconds } };
  }

  private talkTimeCharge(call: CallCompletedData): TalkTimeCharge {
    return {
      accountId: call.account_id,
      reference: talkTimeReference(call.call_sid),
      period: this.billing.allowancePeriod(new Date(call.started_at)),
      seconds: call.duration_sec,
      byTier: talkTimeByTier(call),
    };
  }
}

/** The call's charge on each tier, and its ledger description (the account's tier picks one under its lock). */
function talkTimeByTier(call: Pick<CallCompletedData, 'call_sid' | 'number_id' | 'duration_sec'>) {
  return Object.fromEntries(
    TIERS.map((tier) => [
      tier,
      {
        amountMillicents: talkTimeCharge(call.duration_sec, tier),
        description: talkTimeDescription(call.call_sid, call.number_id, call.duration_sec, tier),
      },
    ]),
  ) as Record<Tier, TierCharge>;
}

type Billed =
  | { outcome: 'unknown_account' | 'duplicate' }
  | { outcome: 'billed'; account: LockedAccount; answeringChanged: boolean };
