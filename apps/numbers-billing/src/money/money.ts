import { wholeCents, type Tier } from '@switchboard/contracts';

/**
 * Money inside numbers-billing is integer millicents (bigint): 1 cent = 1000 millicents. Per-second talk time
 * is computed exactly and rounded once per call (docs/adr/0013-money-and-talk-time.md).
 */
export const MILLICENTS_PER_CENT = 1000n;

/** $5: the monthly price of a number and the minimum balance to provision one (spec part 8). */
export const NUMBER_MONTHLY_PRICE_MILLICENTS = 500n * MILLICENTS_PER_CENT;

export interface TierTerms {
  /** Talk time per minute, in millicents. */
  ratePerMinuteMillicents: bigint;
  /** Minutes the agent answers per calendar month; null for unlimited (spec part 8). */
  monthlyMinutes: number | null;
}

export const TIER_TERMS: Record<Tier, TierTerms> = {
  starter: { ratePerMinuteMillicents: 49_000n, monthlyMinutes: 200 },
  growth: { ratePerMinuteMillicents: 39_000n, monthlyMinutes: 1_000 },
  scale: { ratePerMinuteMillicents: 29_000n, monthlyMinutes: null },
};

export function centsToMillicents(cents: number | bigint): bigint {
  return BigInt(cents) * MILLICENTS_PER_CENT;
}

/** Whole cents, rounded down (toward minus infinity): the one rounding rule for money shown (docs/money-and-minutes.md). */
export function millicentsToCents(millicents: bigint): bigint {
  return wholeCents(millicents);
}

/**
 * The price of a call: `duration_sec × rate / 60`, exact as a fraction, rounded to the nearest millicent with
 * halves rounded up. The error is below half a millicent (1/2000 of a cent) per call.
 */
export function talkTimeCharge(durationSec: number, tier: Tier): bigint {
  if (!Number.isInteger(durationSec) || durationSec < 0)
    throw new RangeError('durationSec must be a non-negative integer');
  const numerator = BigInt(durationSec) * TIER_TERMS[tier].ratePerMinuteMillicents;
  return (numerator * 2n + 60n) / 120n;
}

/** The number as JSON wants it; throws rather than lose precision (beyond ±$90 billion). */
export function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${value} does not fit in a JSON number`);
  }
  return Number(value);
}
