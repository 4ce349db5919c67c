import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { AutoTopUpAttempt } from '../generated/kysely/database';
import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';

export type AttemptRecord = Selectable<AutoTopUpAttempt>;

/** Auto-top-up attempts (docs/adr/0131-auto-top-up-and-stripe.md): one pending at a time per account, driven to an end. */
@Injectable()
export class AutoTopUpAttemptsRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  /** The account's pending attempts started after `since` (live: within their lease). */
  countLive(tx: Tx, accountId: string, since: Date): Promise<number> {
    return tx.autoTopUpAttempt.count({
      where: { account_id: accountId, status: 'pending', created_at: { gt: since } },
    });
  }

  start(
    tx: Tx,
    attempt: Pick<AttemptRecord, 'id' | 'account_id' | 'amount_cents' | 'created_at'>,
  ): Promise<AttemptRecord> {
    return tx.autoTopUpAttempt.create({ data: { ...attempt, status: 'pending' } });
  }

  find(id: string): Promise<AttemptRecord | null> {
    return this.prisma.autoTopUpAttempt.findUnique({ where: { id } });
  }

  /** Attempts pending since `before` or earlier (abandoned: a crash mid-payment), at most `take`. */
  findAbandoned(before: Date, take: number): Promise<AttemptRecord[]> {
    return this.prisma.autoTopUpAttempt.findMany({ where: { status: 'pending', created_at: { lte: before } }, take });
  }

  /** Ends a pending attempt as failed, in the caller's transaction; false when it already ended. */
  async markFailed(tx: Tx, id: string, error: string, at: Date = new Date()): Promise<boolean> {
    const ended = await tx.autoTopUpAttempt.updateMany({
      where: { id, status: 'pending' },
      data: { status: 'failed', error, finished_at: at },
    });
    return ended.count === 1;
  }

  /** Ends a pending attempt as succeeded, in the caller's transaction; false when it already ended. */
  async markSucceeded(tx: Tx, id: string, paymentId: string): Promise<boolean> {
    const claimed = await tx.autoTopUpAttempt.updateMany({
      where: { id, status: 'pending' },
      data: { status: 'succeeded', payment_id: paymentId, finished_at: new Date() },
    });
    return claimed.count === 1;
  }
}
