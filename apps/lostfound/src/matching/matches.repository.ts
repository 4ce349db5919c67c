import { Injectable } from '@nestjs/common';
import type { ValueClass } from '@switchboard/contracts';
import { sql, type Selectable } from 'kysely';
import type { Claim, ClaimMatch, FoundItem, Location } from '../generated/kysely/database';
import { LostfoundPrisma, type Tx } from '../prisma/lostfound-prisma';
import { MAX_LISTED_MATCHES, MAX_RECORDED_MATCHES } from './match-rule';

export interface NewMatch {
  claim_id: number;
  found_item_id: number;
  score: number;
  /** Text the claimant about it (matches found when a new item is logged). */
  notify: boolean;
}

type Item = Selectable<FoundItem>;

/** A matched item as a low-value claim may see it (`found_date` as `YYYY-MM-DD`). */
export type ListedMatchRow = Pick<Selectable<ClaimMatch>, 'found_item_id'> &
  Pick<Item, 'description' | 'color' | 'found_area'> & { found_date: string };

/** A matched item as the console's desk shows it to staff, whatever its value class. */
export type CandidateRow = ListedMatchRow &
  Pick<Item, 'category' | 'storage_ref'> & { value_class: ValueClass; total: number };

/** A text to send: one claim, one item, and what the wording may say. */
export type PendingText = { match_id: Selectable<ClaimMatch>['id'] } & Pick<Selectable<ClaimMatch>, 'claim_id'> &
  Pick<Selectable<Claim>, 'claimant_phone'> &
  Pick<Item, 'description' | 'color'> & {
    claim_class: ValueClass;
    item_class: ValueClass;
    /** `YYYY-MM-DD`. */
    found_date: string;
    location_name: Selectable<Location>['name'];
    /** The location's account: its mode decides which SMS provider texts (docs/adr/0087-test-mode.md). */
    account_id: Selectable<Location>['account_id'];
    /** The item's vocabulary category (the text names the item by it, docs/adr/0053). */
    item_category: Item['category_class'];
  };

@Injectable()
export class MatchesRepository {
  constructor(private readonly prisma: LostfoundPrisma) {}

  /** Records matches; a pair already recorded is left as it is (so its text is never sent twice). */
  async record(tx: Tx, matches: NewMatch[]): Promise<void> {
    if (matches.length === 0) return;
    await tx.claimMatch.createMany({ data: matches, skipDuplicates: true });
  }

  /** The low-value items still in storage that a claim matched, best first (what a low-value claim may see). */
  listedFor(claimId: number): Promise<ListedMatchRow[]> {
    return sql<ListedMatchRow>`
      SELECT i.id AS found_item_id, i.description, i.color, i.found_area, to_char(i.found_date, 'YYYY-MM-DD') AS found_date
        FROM claim_matches m JOIN found_items i ON i.id = m.found_item_id
       WHERE m.claim_id = ${claimId} AND i.status = 'stored' AND i.value_class = 'low'
       ORDER BY m.score DESC, i.found_date DESC, i.id DESC
       LIMIT ${MAX_LISTED_MATCHES}`
      .execute(this.prisma.$kysely())
      .then(({ rows }) => rows);
  }

  /**
   * Every item still in storage that a claim matched, best first (at most MAX_RECORDED_MATCHES, each row with the
   * count of them all): the same rows `has_match` tests for, so the desk's claim page shows a candidate exactly when
   * the claim has a match.
   */
  candidatesOf(claimId: number): Promise<CandidateRow[]> {
    return sql<CandidateRow>`
      SELECT i.id AS found_item_id, i.category, i.description, i.color, i.found_area,
             to_char(i.found_date, 'YYYY-MM-DD') AS found_date, i.storage_ref, i.value_class, count(*) OVER ()::int AS total
        FROM claim_matches m JOIN found_items i ON i.id = m.found_item_id
       WHERE m.claim_id = ${claimId} AND i.status = 'stored'
       ORDER BY m.score DESC, i.found_date DESC, i.id DESC
       LIMIT ${MAX_RECORDED_MATCHES}`
      .execute(this.prisma.$kysely())
      .then(({ rows }) => rows);
  }

  /**
   * Takes up to `limit` texts to send and marks them sent in the same statement, so two senders never take
   * the same one (`SKIP LOCKED`). Only for claims still open and items still stored.
   */
  takePending(limit: number): Promise<PendingText[]> {
    return sql<PendingText>`
      WITH taken AS (
        UPDATE claim_matches SET notified_at = now()
         WHERE id IN (
           SELECT m.id FROM claim_matches m
             JOIN claims c ON c.id = m.claim_id AND c.status = 'open'
             JOIN found_items i ON i.id = m.found_item_id AND i.status = 'stored'
            WHERE m.notify AND m.notified_at IS NULL
            ORDER BY m.id
            LIMIT ${limit}
              FOR UPDATE OF m SKIP LOCKED)
        RETURNING id, claim_id, found_item_id)
      SELECT t.id AS match_id, t.claim_id, c.claimant_phone, c.value_class AS claim_class, i.value_class AS item_class,
             i.category_class AS item_category, i.description, i.color, to_char(i.found_date, 'YYYY-MM-DD') AS found_date,
             l.name AS location_name, l.account_id
        FROM taken t
        JOIN claims c ON c.id = t.claim_id
        JOIN found_items i ON i.id = t.found_item_id
        JOIN locations l ON l.id = c.location_id
       ORDER BY t.id`
      .execute(this.prisma.$kysely())
      .then(({ rows }) => rows);
  }

  /** Gives a text back to be tried again later (its send failed). */
  async release(matchId: number): Promise<void> {
    await this.prisma.claimMatch.update({ where: { id: matchId }, data: { notified_at: null } });
  }
}
