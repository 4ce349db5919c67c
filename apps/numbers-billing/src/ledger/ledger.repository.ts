import { Injectable } from '@nestjs/common';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { LedgerKind } from '@switchboard/contracts';
import type { Account, LedgerEntry } from '../generated/kysely/database';
import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';

export interface LedgerPosting {
  accountId: string;
  kind: LedgerKind;
  /** Unique over the ledger: posting the same reference twice changes nothing the second time. */
  reference: string;
  /** Signed: credits are positive, charges negative. */
  amountMillicents: bigint;
  description: string;
}

/** The columns of an account its locking reads return. */
export const LOCKED_ACCOUNT_COLUMNS = [
  'id',
  'balance_millicents',
  'tier',
  'number_limit',
  'auto_top_up_threshold_cents',
  'auto_top_up_amount_cents',
  'allowance_exhausted_period',
  'balance_low_since',
] as const;

export type LockedAccount = Pick<Selectable<Account>, (typeof LOCKED_ACCOUNT_COLUMNS)[number]>;

export type LedgerRow = Omit<Selectable<LedgerEntry>, 'account_id'>;

/**
 * A posting as two common table expressions, after an `account` CTE that locked the account row (`FOR UPDATE`) and
 * selected its `id`, `balance_millicents` and whatever `amount` and `description` read: `inserted`, the ledger row
 * (nothing when a row with this reference exists: the change was made before), written with the balance read under
 * that lock, and `moved`, the balance, moved only when the row was inserted. `amount` is signed (credits positive).
 * Every posting is made of it, so the balance is always the sum of the account's rows.
 */
export function postingOf(
  accountId: string,
  kind: LedgerKind,
  reference: string,
  amount: RawBuilder<unknown>,
  description: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`inserted AS (
        INSERT INTO ledger_entries (account_id, kind, reference, amount_millicents, balance_after_millicents, description)
        SELECT id, ${kind}, ${reference}, ${amount}, balance_millicents + ${amount}, ${description}
          FROM account
        ON CONFLICT (reference) DO NOTHING
        RETURNING balance_after_millicents
      ), moved AS (
        UPDATE accounts SET balance_millicents = inserted.balance_after_millicents FROM inserted WHERE accounts.id = ${accountId}
      )`;
}

/**
 * The only way a balance changes: one ledger row and the balance update, in the caller's transaction, with the
 * account row locked. So the balance is always the sum of the account's rows, and concurrent changes to one
 * account happen one after the other.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  /** Locks the account row for the rest of the transaction (`SELECT … FOR UPDATE`); null when it does not exist. */
  async lockAccount(tx: Tx, accountId: string): Promise<LockedAccount | null> {
    const rows = await tx
      .$kysely()
      .selectFrom('accounts')
      .select(LOCKED_ACCOUNT_COLUMNS)
      .where('id', '=', accountId)
      .forUpdate()
      .execute();
    return rows[0] ?? null;
  }

  /**
   * Writes the row and moves the balance. Returns the balance after it, or null when a row with this reference
   * already exists (nothing changed: the change was made before).
   *
   * One statement (a round trip instead of three, on every charge and credit): it locks the account row (a no-op
   * when the caller holds it already), inserts the row with the balance read under that lock, and moves the
   * balance only when the row was inserted. Concurrent postings to one account still happen one after the other:
   * a second one waits for the lock and, under READ COMMITTED, then reads the balance the first one committed.
   */
  async post(tx: Tx, posting: LedgerPosting): Promise<bigint | null> {
    const [result] = (
      await sql<{ found: boolean; after: Selectable<LedgerEntry>['balance_after_millicents'] | null }>`
      WITH account AS (
        SELECT id, balance_millicents FROM accounts WHERE id = ${posting.accountId} FOR UPDATE
      ), ${postingOf(posting.accountId, posting.kind, posting.reference, sql`${posting.amountMillicents}`, sql`${posting.description}`)}
      SELECT EXISTS (SELECT 1 FROM account) AS found, (SELECT balance_after_millicents FROM inserted) AS after`.execute(
        tx.$kysely(),
      )
    ).rows;
    if (!result.found) throw new Error(`ledger: no account ${posting.accountId}`);
    return result.after;
  }

  /** Newest first, after the row `startingAfter` (an id) when given. */
  page(accountId: string, limit: number, startingAfter?: bigint): Promise<LedgerRow[]> {
    return this.prisma.ledgerEntry.findMany({
      where: { account_id: accountId, ...(startingAfter !== undefined ? { id: { lt: startingAfter } } : {}) },
      orderBy: { id: 'desc' },
      take: limit,
      select: {
        id: true,
        kind: true,
        reference: true,
        amount_millicents: true,
        balance_after_millicents: true,
        description: true,
        created_at: true,
      },
    });
  }

  /**
   * The account's answering state (whether its talk-time allowance is used up), read in the caller's transaction.
   * Here beside `lockAccount` because numbers and billing read it, and the accounts feature imports both.
   */
  /** Records the account's balance as low since `since` (null: no longer low), in the caller's transaction. */
  async setBalanceLow(tx: Tx, accountId: string, since: Date | null): Promise<void> {
    await tx.account.update({ where: { id: accountId }, data: { balance_low_since: since } });
  }

  answeringState(tx: Tx, accountId: string): Promise<Pick<Selectable<Account>, 'allowance_exhausted_period'>> {
    return tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { allowance_exhausted_period: true } });
  }

  /** Accounts whose talk-time allowance ran out in a month before `period` (the billing run renews them). */
  withAllowanceExhaustedBefore(period: string): Promise<Pick<Selectable<Account>, 'id'>[]> {
    return this.prisma.account.findMany({
      where: { allowance_exhausted_period: { not: null, lt: period } },
      select: { id: true },
    });
  }

  /** The balance and the ledger's sum, read in one snapshot (they are equal; tests and checks assert it). */
  async reconcile(accountId: string): Promise<{ balance: bigint; ledgerSum: bigint } | null> {
    const rows = (
      await sql<{ balance: Selectable<Account>['balance_millicents']; ledger_sum: bigint }>`
      SELECT a.balance_millicents AS balance,
             COALESCE((SELECT SUM(amount_millicents) FROM ledger_entries l WHERE l.account_id = a.id), 0)::bigint AS ledger_sum
        FROM accounts a WHERE a.id = ${accountId}`.execute(this.prisma.$kysely())
    ).rows;
    return rows[0] ? { balance: rows[0].balance, ledgerSum: rows[0].ledger_sum } : null;
  }
}
