import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DEFAULT_NUMBER_LIMIT,
  MAX_BALANCE_CENTS,
  ServiceError,
  type AccountBalance,
  type AccountView,
  type BalanceView,
  type CreateAccountBody,
  type CreditAccountCommand,
  type Tier,
  type UpdateAccountCommand,
  isTestAccount,
  testAccountOf,
} from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import { allowancePeriod } from '../billing/billing-periods';
import { OverdueSettlement } from '../billing/overdue-settlement';
import { LedgerRepository } from '../ledger/ledger.repository';
import { TIER_TERMS, centsToMillicents, millicentsToCents, toSafeNumber } from '../money/money';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { LOCKING_TX, NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { TalkTimeAllowance } from '../talk-time/allowance';
import { newAccountId } from './account-id';
import { AccountsRepository, type AccountChanges, type AccountRecord } from './accounts.repository';

/** What a test twin opens with: $100 of test money (never charged, never paid out). */
export const TEST_OPENING_BALANCE_CENTS = 10_000;

/** Requests about accounts and their money: the operator's (operator contract) and the account's balance. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerRepository,
    private readonly allowance: TalkTimeAllowance,
    private readonly settlement: OverdueSettlement,
    private readonly outbox: NumbersOutbox,
  ) {}

  /** An opening balance is written to the ledger as the account's first top-up. */
  async create(command: CreateAccountBody): Promise<AccountView> {
    const account = await this.transactions.run(async (tx) => {
      const created = await this.accounts.create(tx, {
        id: newAccountId(),
        name: command.name,
        tier: command.tier ?? 'starter',
      });
      if (command.balance_cents) {
        await this.ledger.post(tx, {
          accountId: created.id,
          kind: 'top_up',
          reference: `top_up:opening:${created.id}`,
          amountMillicents: centsToMillicents(command.balance_cents),
          description: 'Opening balance',
        });
      }
      return this.accounts.find(created.id, tx);
    });
    return toView(account!);
  }

  /**
   * The account's test twin (docs/adr/0087-test-mode.md), made at the first test key: same name, tier and number
   * limit, and an opening balance of test money so a test key can buy numbers at once. Made once: the twin's row is
   * created under the live account's row lock, so two first test keys at once make one twin.
   */
  async openTestMode(liveAccountId: string): Promise<AccountView> {
    if (isTestAccount(liveAccountId))
      throw new ServiceError('invalid_request', 'A test account has no test twin of its own; use the live account id.');
    const twinId = testAccountOf(liveAccountId);
    const twin = await this.transactions.run(async (tx) => {
      if (!(await this.ledger.lockAccount(tx, liveAccountId))) return null;
      const live = (await this.accounts.find(liveAccountId, tx))!;
      const existing = await this.accounts.find(twinId, tx);
      if (existing) return existing;
      await this.accounts.create(tx, { id: twinId, name: live.name, tier: live.tier as Tier });
      await this.accounts.update(tx, twinId, { number_limit: live.number_limit });
      await this.ledger.post(tx, {
        accountId: twinId,
        kind: 'top_up',
        reference: `top_up:opening:${twinId}`,
        amountMillicents: centsToMillicents(TEST_OPENING_BALANCE_CENTS),
        description: 'Opening balance (test money)',
      });
      return this.accounts.find(twinId, tx);
    });
    if (!twin) throw notFound();
    return toView(twin);
  }

  async get(accountId: string): Promise<AccountView> {
    const account = await this.accounts.find(accountId);
    if (!account) throw notFound();
    return toView(account);
  }

  /**
   * `GET /balance`, the account's own: its balance, tier and the talk time of the current allowance period (the
   * calendar month in UTC, docs/adr/0013-money-and-talk-time.md). Minutes used are whole minutes rounded down, so
   * `minutes_used` reaches `minutes_included` exactly when the allowance is used up.
   */
  async balance(accountId: string, now: Date = new Date()): Promise<AccountBalance> {
    const period = allowancePeriod(now);
    // One snapshot for both reads: a call's talk time posts the usage and the charge in one transaction, and two
    // separate reads could straddle it (the usage counted, the charge not yet).
    const [account, seconds] = await this.transactions.run(
      async (tx) =>
        [await this.accounts.find(accountId, tx), await this.allowance.usage(tx, accountId, period)] as const,
      { isolationLevel: 'RepeatableRead' },
    );
    if (!account) throw new ServiceError('unauthorized', 'The account of this key no longer exists.');
    const tier = account.tier as Tier;
    return {
      balance_cents: toSafeNumber(millicentsToCents(account.balance_millicents)),
      tier,
      period,
      minutes_used: toSafeNumber(seconds / 60n),
      seconds_used: toSafeNumber(seconds),
      minutes_included: TIER_TERMS[tier].monthlyMinutes,
    };
  }

  /** Tier, number limit and auto-top-up. A new tier re-judges this month's talk-time allowance at once. */
  async update(command: UpdateAccountCommand, cause: EventCause): Promise<AccountView> {
    const changes: AccountChanges = { tier: command.tier, number_limit: command.number_limit };
    if (command.auto_top_up === null) {
      changes.auto_top_up_threshold_cents = null;
      changes.auto_top_up_amount_cents = null;
    } else if (command.auto_top_up !== undefined) {
      changes.auto_top_up_threshold_cents = command.auto_top_up.threshold_cents;
      changes.auto_top_up_amount_cents = command.auto_top_up.amount_cents;
    }
    const updated = await this.transactions.run(async (tx) => {
      const locked = await this.ledger.lockAccount(tx, command.account_id);
      if (!locked) throw notFound();
      await this.accounts.update(tx, command.account_id, changes);
      if (command.tier !== undefined && command.tier !== locked.tier) {
        await this.allowance.reconcile(tx, { ...locked, tier: command.tier }, new Date(), cause);
      }
      return this.accounts.find(command.account_id, tx);
    }, LOCKING_TX);
    this.outbox.kick();
    return toView(updated!);
  }

  /**
   * A top-up written to the ledger. The account's past_due numbers then pay what they owe and answer again;
   * the answer is the balance after that. One that would take the balance past `MAX_BALANCE_CENTS` is refused with
   * 400, judged on the balance read under the account's lock, so two concurrent credits cannot pass it together.
   */
  async credit(command: CreditAccountCommand, cause: EventCause): Promise<BalanceView> {
    const posted = await this.transactions.run(
      (tx) =>
        this.ledger.lockAccount(tx, command.account_id).then(async (account) => {
          if (!account) throw notFound();
          const amount = centsToMillicents(command.amount_cents);
          const room = centsToMillicents(MAX_BALANCE_CENTS) - account.balance_millicents;
          if (amount > room)
            throw new ServiceError(
              'invalid_request',
              `amount_cents would take the balance past ${MAX_BALANCE_CENTS} cents, the most an account holds: ` +
                `the balance is ${millicentsToCents(account.balance_millicents)} cents, ` +
                `room for ${room > 0n ? millicentsToCents(room) : 0n} more.`,
            );
          return this.ledger.post(tx, {
            accountId: command.account_id,
            kind: 'top_up',
            reference: `top_up:${randomUUID()}`,
            amountMillicents: amount,
            description: 'Credit by the operator',
          });
        }),
      LOCKING_TX,
    );
    if (posted === null) throw new Error('a fresh top-up reference collided');
    await this.settlement.settle(command.account_id, cause);
    const account = await this.accounts.find(command.account_id);
    return { balance_cents: toSafeNumber(millicentsToCents(account!.balance_millicents)) };
  }
}

function notFound(): ServiceError {
  return new ServiceError('not_found', 'No account with that id.');
}

function toView(account: AccountRecord): AccountView {
  return {
    id: account.id,
    name: account.name,
    balance_cents: toSafeNumber(millicentsToCents(account.balance_millicents)),
    tier: account.tier as AccountView['tier'],
    number_limit: account.number_limit ?? DEFAULT_NUMBER_LIMIT,
    created_at: account.created_at.toISOString(),
    auto_top_up:
      account.auto_top_up_threshold_cents !== null && account.auto_top_up_amount_cents !== null
        ? { threshold_cents: account.auto_top_up_threshold_cents, amount_cents: account.auto_top_up_amount_cents }
        : null,
  };
}
