import { Injectable } from '@nestjs/common';
import { ClaimsRepository, type ClaimRow } from '../claims/claims.repository';
import { FoundItemsRepository, type FoundItemRow } from '../found-items/found-items.repository';
import type { LostfoundTx } from '../prisma/lostfound-prisma';
import { anyWordTsQuery } from '../search/search-query';
import { MAX_RECORDED_MATCHES, scoreMatch, type MatchSide } from './match-rule';
import { MatchesRepository } from './matches.repository';

export interface Scored<T> {
  row: T;
  score: number;
}

export function claimSide(claim: ClaimRow): MatchSide {
  return { category: claim.category_class, description: claim.description, color: claim.color, area: claim.lost_area, date: claim.lost_date };
}

export function itemSide(item: FoundItemRow): MatchSide {
  return { category: item.category_class, description: item.description, color: item.color, area: item.found_area, date: item.found_date };
}

/**
 * Runs the matching rule inside the transaction that stores a claim or an item: the database narrows the
 * candidates (same location, category, dates, a shared word), the rule scores them, the matches are recorded.
 */
@Injectable()
export class MatchingService {
  constructor(
    private readonly items: FoundItemsRepository,
    private readonly claims: ClaimsRepository,
    private readonly matches: MatchesRepository,
  ) {}

  /**
   * A new claim against the stored items of its location; best first, at most MAX_RECORDED_MATCHES. Claimants
   * are not texted for these: the answer to the claim tells them.
   */
  async matchClaim(tx: LostfoundTx, claim: ClaimRow): Promise<Scored<FoundItemRow>[]> {
    const candidates = await this.items.candidatesFor(tx, claim, anyWordTsQuery(claim.description, claim.color, claim.lost_area));
    const side = claimSide(claim);
    const scored = rank(candidates.map((row) => ({ row, verdict: scoreMatch(side, itemSide(row)) })));
    await this.matches.record(tx, scored.map(({ row, score }) => ({ claim_id: claim.id, found_item_id: row.id, score, notify: false })));
    return scored;
  }

  /**
   * A new item against the open claims of its location (reverse matching). `textable` picks, from the matched
   * claims (best first), those whose claimants are to be texted (the texting rule); the others are recorded only.
   */
  async matchItem(
    tx: LostfoundTx,
    item: FoundItemRow,
    textable: (matched: ClaimRow[]) => Promise<ReadonlySet<number>>,
  ): Promise<Scored<ClaimRow>[]> {
    const candidates = await this.claims.candidatesFor(tx, item, anyWordTsQuery(item.description, item.color, item.found_area));
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
