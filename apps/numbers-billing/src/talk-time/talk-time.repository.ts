import { Injectable } from '@nestjs/common';
import { TIERS, type Tier } from '@switchboard/contracts';
import { hasSqlState, prebuiltStatement } from '@switchboard/persistence';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { LedgerEntry, TalkTimeUsage } from '../generated/kysely/database';
import { LOCKED_ACCOUNT_COLUMNS, postingOf, type LockedAccount } from '../ledger/ledger.repository';
import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';
import { allowanceSeconds } from './allowance';

/** What a call costs on one tier, and how its ledger row says so. */
export interface TierCharge {
  amountMillicents: bigint;
  description: string;
}

export interface TalkTimeCharge {
  accountId: string;
  /** Unique over the ledger (`talk_time:<call sid>`): a call is charged once however often it is delivered. */
  reference: string;
  /** The allowance month the call counts against. */
  period: string;
  seconds: number;
  /** The call's charge on every tier (money.ts computes them): the statement takes the account's. */
  byTier: Record<Tier, TierCharge>;
}

export type TalkTimeCharged =
  | { kind: 'unknown_account' }
  /** The account as read under its lock (balance before this charge); nothing changed: charged before. */
  | { kind: 'duplicate'; account: LockedAccount }
  /** The account as read under its lock, the balance this charge left and the month's usage with it. */
  | { kind: 'charged'; account: LockedAccount; balanceAfter: bigint; usageSeconds: bigint };

/** A call's `talk_time` row, as its correction reads it. */
export type BilledRow = Pick<Selectable<LedgerEntry>, 'account_id' | 'amount_millicents' | 'description'>;

type ChargeRow = LockedAccount & {
  after: Selectable<LedgerEntry>['balance_after_millicents'] | null;
  used_seconds: Selectable<TalkTimeUsage>['seconds'] | null;
};

/** The account's tier picks one of `values` (each cast to `type`). Tier names are the code's own constants. */
function byAccountTier(values: Record<Tier, unknown>, type: 'bigint' | 'text'): RawBuilder<unknown> {
  const cases = TIERS.map((tier) => sql`WHEN ${sql.lit(tier)} THEN ${values[tier]}::${sql.raw(type)}`);
  return sql`(CASE tier ${sql.join(cases, sql` `)} END)`;
}

/** The SQLSTATE `talk_time_changes_answering()` raises (its migration, 20261126090000_talk_time_quick_charge). */
const ANSWERING_CHANGES = 'SB001';

/**
 * A call's talk time in the ledger and in the month's usage (ADR 0013).
 */
@Injectable()
export class TalkTimeRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  /**
   * One statement, one round trip (a call was three: the lock, the posting, the usage): locks the account and reads
   * it as `LedgerRepository.lockAccount` does, posts the charge of the account's tier as `LedgerRepository.post`
   * does (`postingOf`), and adds the seconds to the month's usage only when the charge was posted. Concurrent
   * charges to one account wait for its lock and then read what the one before committed (READ COMMITTED). Runs in
   * the caller's Prisma transaction (the full path, which may change answering in the same transaction).
   */
  async charge(tx: Tx, charge: TalkTimeCharge): Promise<TalkTimeCharged> {
    const [row] = (await chargeStatement(chargeValues(charge)).execute(tx.$kysely())).rows;
    return chargedFrom(row);
  }

  /**
   * `charge` as a transaction of its own, committed unless the call changes the account's answering (ADR 0013): the
   * statement itself checks, from the usage it just wrote and the account as locked, that `TalkTimeAllowance`'s
   * `reconcile` would have nothing to do (the call counts against the current month, `currentPeriod`, and leaves the
   * account's allowance used up, or not, as it was) and otherwise aborts, keeping nothing: `answering_changes`, to
   * be billed in full. One round trip where a transaction around `charge` takes three (BEGIN, the statement, COMMIT).
   */
  async chargeUnlessAnsweringChanges(
    charge: TalkTimeCharge,
    currentPeriod: string,
  ): Promise<TalkTimeCharged | { kind: 'answering_changes' }> {
    const values = chargeValues(charge);
    try {
      const {
        rows: [row],
      } = await this.prisma
        .$kysely()
        .executeQuery(
          quickChargeStatement(
            values.accountId,
            values.reference,
            values.period,
            values.seconds,
            currentPeriod,
            ...TIERS.map((tier) => values.amounts[tier]),
            ...TIERS.map((tier) => values.descriptions[tier]),
          ),
        );
      return chargedFrom(row);
    } catch (error) {
      if (hasSqlState(error, ANSWERING_CHANGES)) return { kind: 'answering_changes' };
      throw error;
    }
  }

  /** The ledger row a call's talk time was billed with (`talk_time:<call sid>`); null while it is not billed. */
  billed(tx: Tx, reference: string): Promise<BilledRow | null> {
    return tx.ledgerEntry.findUnique({
      where: { reference },
      select: { account_id: true, amount_millicents: true, description: true },
    });
  }

  /**
   * Adds `seconds` (signed: a correction may take some back) to the account's usage of `period`, never below zero,
   * in the caller's transaction, with the account locked; returns the month's total after it.
   */
  async addUsage(tx: Tx, accountId: string, period: string, seconds: bigint): Promise<bigint> {
    const [row] = (
      await sql<Pick<Selectable<TalkTimeUsage>, 'seconds'>>`
      INSERT INTO talk_time_usage (account_id, period, seconds) VALUES (${accountId}, ${period}, GREATEST(${seconds}::bigint, 0))
      ON CONFLICT (account_id, period) DO UPDATE SET seconds = GREATEST(talk_time_usage.seconds + ${seconds}::bigint, 0)
      RETURNING seconds`.execute(tx.$kysely())
    ).rows;
    return row.seconds;
  }
}

/** A charge as its statement's parameters: the amounts signed as the ledger posts them (a charge is negative). */
interface ChargeValues {
  accountId: string;
  reference: string;
  period: string;
  seconds: bigint;
  amounts: Record<Tier, bigint>;
  descriptions: Record<Tier, string>;
}

function chargeValues(charge: TalkTimeCharge): ChargeValues {
  return {
    accountId: charge.accountId,
    reference: charge.reference,
    period: charge.period,
    seconds: BigInt(charge.seconds),
    amounts: Object.fromEntries(TIERS.map((t) => [t, -charge.byTier[t].amountMillicents])) as Record<Tier, bigint>,
    descriptions: Object.fromEntries(TIERS.map((t) => [t, charge.byTier[t].description])) as Record<Tier, string>,
  };
}

/** The charge's parameters in `quickChargeStatement`'s order: the tiers' amounts, then their descriptions. */
type QuickChargeArgs = [
  accountId: string,
  reference: string,
  period: string,
  seconds: bigint,
  currentPeriod: string,
  ...amountsThenDescriptions: Array<bigint | string>,
];

/**
 * `chargeUnlessAnsweringChanges`'s statement, built and compiled once (it runs for nearly every call; building and
 * compiling it anew took 18 us a call, 4.5% of numbers-billing's sampled CPU in the event burst): the charge, and a
 * column that checks, from the usage just written and the account as locked, that `TalkTimeAllowance`'s `reconcile`
 * would have nothing to do (the call counts against the current month and leaves the allowance used up, or not, as
 * it was), and otherwise raises `ANSWERING_CHANGES`.
 */
const quickChargeStatement = prebuiltStatement(
  (...[accountId, reference, period, seconds, currentPeriod, ...tierValues]: QuickChargeArgs) => {
    const amounts = Object.fromEntries(TIERS.map((t, i) => [t, tierValues[i]])) as Record<Tier, bigint>;
    const descriptions = Object.fromEntries(TIERS.map((t, i) => [t, tierValues[TIERS.length + i]])) as Record<
      Tier,
      string
    >;
    const limits = Object.fromEntries(TIERS.map((tier) => [tier, allowanceSeconds(tier)])) as Record<
      Tier,
      bigint | null
    >;
    const used = sql`(SELECT seconds FROM used)`;
    const exhaustedAfter = sql`(CASE WHEN ${byAccountTier(limits, 'bigint')} <= ${used} THEN ${period}::text END)`;
    const unchanged = sql`${used} IS NULL OR (${period}::text = ${currentPeriod}::text AND ${exhaustedAfter} IS NOT DISTINCT FROM account.allowance_exhausted_period)`;
    return chargeStatement(
      { accountId, reference, period, seconds, amounts, descriptions },
      sql`, CASE WHEN ${unchanged} THEN true ELSE talk_time_changes_answering() END AS unchanged`,
    );
  },
  5 + 2 * TIERS.length,
);

/** The charge's statement; `check` adds a column to its one row (the account's), computed after every write. */
function chargeStatement(charge: ChargeValues, check: RawBuilder<unknown> = sql``): RawBuilder<ChargeRow> {
  return sql<ChargeRow>`
      WITH account AS (
        SELECT ${sql.join(LOCKED_ACCOUNT_COLUMNS.map((c) => sql.ref(c)))} FROM accounts
         WHERE id = ${charge.accountId} FOR UPDATE
      ), ${postingOf(
        charge.accountId,
        'talk_time',
        charge.reference,
        byAccountTier(charge.amounts, 'bigint'),
        byAccountTier(charge.descriptions, 'text'),
      )}, used AS (
        INSERT INTO talk_time_usage (account_id, period, seconds)
        SELECT ${charge.accountId}, ${charge.period}, ${charge.seconds} FROM inserted
        ON CONFLICT (account_id, period) DO UPDATE SET seconds = talk_time_usage.seconds + EXCLUDED.seconds
        RETURNING seconds
      )
      SELECT ${sql.join(LOCKED_ACCOUNT_COLUMNS.map((c) => sql.ref(`account.${c}`)))}, (SELECT balance_after_millicents FROM inserted) AS after, (SELECT seconds FROM used) AS used_seconds${check}
        FROM account`;
}

function chargedFrom(row: (ChargeRow & { unchanged?: boolean }) | undefined): TalkTimeCharged {
  if (!row) return { kind: 'unknown_account' };
  const { after, used_seconds: usage, unchanged: _checked, ...account } = row;
  if (after === null || usage === null) return { kind: 'duplicate', account };
  return { kind: 'charged', account, balanceAfter: after, usageSeconds: usage };
}
