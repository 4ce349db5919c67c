import { Injectable } from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import type { DailyTextCount } from '../generated/kysely/database';
import type { Tx } from '../prisma/lostfound-prisma';

/** Whose texts a count holds: an account's (all its locations) or one claimant phone's (all accounts). */
export type TextCountScope = 'account' | 'phone';

export interface TextCountKey {
  scope: TextCountScope;
  /** The account id, or the phone in E.164. */
  subject: string;
}

/**
 * The texts counted per UTC day for the daily limits (docs/adr/0053-lostfound-search-matching-and-texts.md). Counts are read
 * and raised inside the transaction that logs the item prompting the texts, with their rows locked, so two
 * requests of one account (or for one phone) cannot both take the last text of the day.
 */
@Injectable()
export class DailyTextCountsRepository {
  /**
   * Locks the day's counts of the keys until the transaction ends (a missing one is created at 0) and answers
   * them by `countKey`. Rows are taken in one order (scope, then subject) so two transactions never deadlock.
   */
  async lock(tx: Tx, day: string, keys: readonly TextCountKey[]): Promise<Map<string, number>> {
    const sorted = [...keys].sort((a, b) => countKey(a).localeCompare(countKey(b)));
    const rows = sorted.map((key) => sql`(${key.scope}, ${key.subject}, ${day}::date, 0)`);
    await sql`
      INSERT INTO daily_text_counts (scope, subject, day, texts) VALUES ${sql.join(rows)}
      ON CONFLICT (scope, subject, day) DO NOTHING`.execute(tx.$kysely());
    const wanted = sorted.map((key) => sql`(${key.scope}, ${key.subject})`);
    const counted = (
      await sql<TextCountKey & Pick<Selectable<DailyTextCount>, 'texts'>>`
      SELECT scope, subject, texts FROM daily_text_counts
       WHERE day = ${day}::date AND (scope, subject) IN (${sql.join(wanted)})
       ORDER BY scope, subject
         FOR UPDATE`.execute(tx.$kysely())
    ).rows;
    return new Map(counted.map((row) => [countKey(row), row.texts]));
  }

  /**
   * Forgets the counts of days before yesterday: they limit nothing any more, and the phones in them are
   * claimants'. Yesterday's stay for a request that began before midnight and is still counting it.
   */
  async forgetBefore(tx: Tx, day: string): Promise<void> {
    await sql`DELETE FROM daily_text_counts WHERE day < ${day}::date - 1`.execute(tx.$kysely());
  }

  /** Raises the day's counts (rows locked by `lock` in this transaction). */
  async add(tx: Tx, day: string, increments: readonly (TextCountKey & { texts: number })[]): Promise<void> {
    const raised = increments.filter((increment) => increment.texts > 0);
    if (raised.length === 0) return;
    const values = raised.map((increment) => sql`(${increment.scope}, ${increment.subject}, ${increment.texts}::int)`);
    await sql`
      UPDATE daily_text_counts d SET texts = d.texts + v.texts
        FROM (VALUES ${sql.join(values)}) AS v(scope, subject, texts)
       WHERE d.scope = v.scope AND d.subject = v.subject AND d.day = ${day}::date`.execute(tx.$kysely());
  }
}

export function countKey(key: TextCountKey): string {
  return `${key.scope}:${key.subject}`;
}
