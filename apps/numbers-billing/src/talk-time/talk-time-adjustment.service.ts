import { Inject, Injectable } from '@nestjs/common';
import type { CallUpdatedData, EventEnvelope, Tier } from '@switchboard/contracts';
import { RetryLater, type EventCause } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { LedgerRepository, type LockedAccount } from '../ledger/ledger.repository';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { LOCKING_TX, NumbersBillingTransactions, type Tx } from '../prisma/numbers-billing-prisma';
import { TalkTimeAllowance } from './allowance';
import {
  billedTalkTime,
  talkTimeAdjustment,
  talkTimeAdjustmentDescription,
  talkTimeAdjustmentReference,
  type BilledTalkTime,
} from './talk-time-adjustment';
import { TALK_TIME_BILLING, type TalkTimeBilling } from './talk-time-billing.port';
import { TalkTimeRepository } from './talk-time.repository';
import { talkTimeReference } from './talk-time.service';

export type TalkTimeAdjustmentOutcome =
  'adjusted' | 'duplicate' | 'nothing_to_adjust' | 'not_billed' | 'unknown_account';

/**
 * How long a correction of a call not billed yet waits before it is tried again, and for how many deliveries (about
 * ten minutes: longer than the talk-time consumer's own retries, about six, before its message is dead-lettered).
 */
export const NOT_BILLED_RETRY_MS = 5_000;
export const MAX_NOT_BILLED_DELIVERIES = 120;

/**
 * A call corrected after it was billed (`call.updated`: closed as `incomplete`, then its late end report came) is
 * billed again only by the difference: one `talk_time_adjustment` row per call SID, so that the call has been charged
 * exactly what billing it once at its corrected duration would have, at the tier it was billed at, and its seconds
 * are counted in the month it was counted in. Never a second `talk_time` charge (docs/money-and-minutes.md).
 */
@Injectable()
export class TalkTimeAdjustmentService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly talkTime: TalkTimeRepository,
    private readonly ledger: LedgerRepository,
    private readonly allowance: TalkTimeAllowance,
    private readonly outbox: NumbersOutbox,
    @Inject(TALK_TIME_BILLING) private readonly billing: TalkTimeBilling,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * `deliveryCount`: how many times JetStream has handed this event out (1 the first time). A call not billed yet
   * (its `call.completed` still behind this event) is `RetryLater` until `MAX_NOT_BILLED_DELIVERIES`, then a failure (dead-lettered).
   */
  async adjust(event: EventEnvelope<CallUpdatedData>, deliveryCount = 1): Promise<TalkTimeAdjustmentOutcome> {
    const call = event.data;
    const cause: EventCause = { correlationId: event.correlation_id, causationId: event.id };
    const adjusted = await this.transactions.run((tx) => this.post(tx, call, cause), LOCKING_TX);
    const context = { call_sid: call.call_sid, account_id: call.account_id };
    if (adjusted.outcome === 'not_billed') {
      if (deliveryCount < MAX_NOT_BILLED_DELIVERIES)
        throw new RetryLater(NOT_BILLED_RETRY_MS, `call ${call.call_sid} is corrected before it is billed`);
      // The original charge never came (its call.completed dead-lettered, or not published): nothing to correct
      // against yet. A failure, so the event goes to the dead letters after its charged deliveries, where the operator
      // replays it once the charge is there (docs/operations.md, "Dead letters"): never dropped, never retried forever.
      throw new Error(
        `call.updated for call ${call.call_sid}, never billed (${call.previous_duration_sec} s then, ${call.duration_sec} s now): replay it after its call.completed`,
      );
    }
    if (adjusted.outcome === 'unknown_account')
      this.logger.warn(context, 'call.updated for an unknown account; not adjusted');
    if (adjusted.outcome === 'adjusted') {
      if (adjusted.answeringChanged) this.outbox.kick();
      // As after a charge (TalkTimeService.bill): a debit may drop the balance below the threshold, a credit may lift
      // it back above the low-balance mark; the account was read under the lock the adjustment was made with.
      if (this.billing.belowTopUpThreshold(adjusted.account)) {
        await this.billing
          .afterCharge(adjusted.account.id, cause)
          .catch((err) => this.logger.error({ err, account_id: adjusted.account.id }, 'auto-top-up check failed'));
      }
    }
    return adjusted.outcome;
  }

  /** Locks the account, posts the difference once per call SID, corrects the month's usage and the answering state. */
  private async post(tx: Tx, call: CallUpdatedData, cause: EventCause): Promise<Adjusted> {
    // The lock first: a charge of this call that commits meanwhile is then read below (it takes the same lock).
    const account = await this.ledger.lockAccount(tx, call.account_id);
    if (!account) return { outcome: 'unknown_account' };
    const billed = await this.billedTalkTime(tx, call, account);
    if (!billed) return { outcome: 'not_billed' };
    if (billed.seconds !== call.previous_duration_sec)
      this.logger.warn(
        { call_sid: call.call_sid, billed_sec: billed.seconds, previous_duration_sec: call.previous_duration_sec },
        'call.updated says another duration was billed than the ledger does; corrected from the ledger',
      );
    const adjustment = talkTimeAdjustment(billed, call.duration_sec);
    // Every second has a price of its own at every rate: no difference in money is no difference in seconds either.
    if (adjustment.amountMillicents === 0n) return { outcome: 'nothing_to_adjust' };
    const balanceAfter = await this.ledger.post(tx, {
      accountId: account.id,
      kind: 'talk_time_adjustment',
      reference: talkTimeAdjustmentReference(call.call_sid),
      amountMillicents: adjustment.amountMillicents,
      description: talkTimeAdjustmentDescription(call.call_sid, call.number_id, billed, call.duration_sec),
    });
    if (balanceAfter === null) return { outcome: 'duplicate' };
    // The month the call was counted in (its start's, as `bill` counted it), whichever month it is now.
    const period = this.billing.allowancePeriod(new Date(call.started_at));
    const seconds = await this.talkTime.addUsage(tx, account.id, period, BigInt(adjustment.seconds));
    const adjustedAccount = { ...account, balance_millicents: balanceAfter };
    const answering = await this.allowance.reconcile(tx, adjustedAccount, new Date(), cause, { period, seconds });
    return { outcome: 'adjusted', account: adjustedAccount, answeringChanged: answering !== 'unchanged' };
  }

  /**
   * What the call was billed for, read from its `talk_time` row: its seconds and the tier it was priced at. A call
   * closed at 0 s was billed nothing and has no row (`bill`'s `nothing_to_bill`): then the whole corrected call is
   * the difference, at the account's tier now, as billing it now would price it. Null: not billed yet.
   */
  private async billedTalkTime(tx: Tx, call: CallUpdatedData, account: LockedAccount): Promise<BilledTalkTime | null> {
    const reference = talkTimeReference(call.call_sid);
    const row = await this.talkTime.billed(tx, reference);
    if (!row) {
      return call.previous_duration_sec === 0 ? { seconds: 0, tier: account.tier as Tier, chargeMillicents: 0n } : null;
    }
    const billed = billedTalkTime(row);
    // Not ours to guess: a row of another account, or one that does not say what it billed, goes to the dead letters.
    if (row.account_id !== account.id || !billed)
      throw new Error(`${reference} (account ${row.account_id}) cannot be corrected: "${row.description}"`);
    return billed;
  }
}

type Adjusted =
  | { outcome: 'not_billed' | 'unknown_account' | 'duplicate' | 'nothing_to_adjust' }
  | { outcome: 'adjusted'; account: LockedAccount; answeringChanged: boolean };
