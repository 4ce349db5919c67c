import { Injectable } from '@nestjs/common';
import type { Tx } from '../prisma/lostfound-prisma';
import { MAX_RECORDED_MATCHES, scoreMatch, type MatchSide } from './match-rule';
import { MatchesRepository } from './matches.repository';

export interface Scored<T> {
  row: T;
  score: number;
}

/**
 * What the rule reads of a claim and of a found item; `ClaimRow` and `FoundItemRow` have these fields. Declared
 * here, not imported: claims and found items import matching, so matching imports neither of them.
 */
export interface MatchableClaim {
  id: number;
  category_class: string;
  description: string;
  color: string;
  lost_area: string;
  lost_date: string | null;
}

export interface MatchableItem {
  id: number;
  category_class: string;
  description: string;
  color: string;
  found_area: string;
  found_date: string;
}

export function claimSide(claim: MatchableClaim): MatchSide {
  return {
    category: claim.category_class,
    description: claim.description,
    color: claim.color,
    area: claim.lost_area,
    date: claim.lost_date,
  };
}

export function itemSide(item: MatchableItem): MatchSide {
  return {
    category: item.category_class,
    description: item.description,
    color: item.color,
    area: item.found_area,
    date: item.found_date,
  };
}

/**
 * Runs the matching rule inside the transaction that stores a claim or an item: the caller's repository narrows
 * the candidates in the database (same location, category, dates, a shared word), the rule scores them, the
 * matches are recorded.
 */
@Injectable()
export class MatchingService {
  constructor(private readonly matches: MatchesRepository) {}

  /**
   * A new claim against the stored items of its location; best first, at most MAX_RECORDED_MATCHES. Claimants
   * are not texted for these: the answer to the claim tells them.
   */
  async matchClaim<Item extends MatchableItem>(
    tx: Tx,
    claim: MatchableClaim,
    candidates: Item[],
  ): Promise<Scored<Item>[]> {
    const side = claimSide(claim);
    const scored = rank(candidates.map((row) => ({ row, verdict: scoreMatch(side, itemSide(row)) })));
    await this.matches.record(
      tx,
      scored.map(({ row, score }) => ({ claim_id: claim.id, found_item_id: row.id, score, notify: false })),
    );
    return scored;
  }

  /**
   * A new item against the open claims of its location (reverse matching). `textable` picks, from the matched
   * claims (best first), those whose claimants are to be texted (the texting rule); the others are recorded only.
   */
  async matchItem<Claim extends MatchableClaim>(
    tx: Tx,
    item: MatchableItem,
    candidates: Claim[],
    textable: (matched: Claim[]) => Promise<ReadonlySet<number>>,
  ): Promise<Scored<Claim>[]> {
    const side = itemSide(item);
    const scored = rank(candidates.map((row) => ({ row, verdict: scoreMatch(claimSide(row), side) })));
    const texted = scored.length > 0 ? await textable(scored.map(({ row }) => row)) : new Set<number>();
    await this.matches.record(
      tx,
      scored.map(({ row, score }) => ({ claim_id: row.id, found_item_id: item.id, score, notify: texted.has(row.id) })),
    );
    return scored;
  }
}

function rank<T extends { id: number }>(verdicts: { row: T; verdict: ReturnType<typeof scoreMatch> }[]): Scored<T>[] {
  return verdicts
    .filter(({ verdict }) => verdict.match)
    .map(({ row, verdict }) => ({ row, score: verdict.score }))
    .sort((a, b) => b.score - a.score || b.row.id - a.row.id)
    .slice(0, MAX_RECORDED_MATCHES);
}
