import type { MatchableClaim } from '../matching/matching.service';
import type { Tx } from '../prisma/lostfound-prisma';
import type { TextCandidate } from '../sms/texting-limits';

/** A claim a new item may match, as far as matching and texting read it. */
export type ClaimCandidate = MatchableClaim & TextCandidate;

/**
 * The open claims a new found item is matched against. Claims import found items (a claim's timeline shows the
 * item's), so found items declare this port and `ClaimsRepository` provides it: the two folders do not import
 * each other in a circle.
 */
export interface ClaimCandidates {
  candidatesFor(
    tx: Tx,
    item: { location_id: number; category_class: string; found_date: string },
    anyWord: string | undefined,
  ): Promise<ClaimCandidate[]>;
}

export const CLAIM_CANDIDATES = Symbol('CLAIM_CANDIDATES');
