import { TIERS, type Tier } from '@switchboard/contracts';
import { talkTimeCharge, TIER_TERMS } from '../money/money';

/** The ledger reference of a call's correction: unique, so a call is adjusted once however often it is delivered. */
export function talkTimeAdjustmentReference(callSid: string): string {
  return `talk_time_adjustment:${callSid}`;
}

function ratePerMinute(tier: Tier): string {
  return `${Number(TIER_TERMS[tier].ratePerMinuteMillicents) / 1000}¢/min`;
}

/**
 * A talk-time row's description: what the call was billed for, its seconds at its tier's rate. `billedTalkTime` reads
 * the seconds and the tier back from it, so a correction is priced as the call was, whatever the tier is now.
 */
export function talkTimeDescription(callSid: string, numberId: string, seconds: number, tier: Tier): string {
  return `Call ${callSid} on ${numberId}: ${seconds} s at ${ratePerMinute(tier)} (${tier})`;
}

/** What a call's `talk_time` row billed: its seconds at its tier, and the charge (positive, as money.ts computes it). */
export interface BilledTalkTime {
  seconds: number;
  tier: Tier;
  chargeMillicents: bigint;
}

const BILLED = new RegExp(`: (\\d+) s at [\\d.]+¢/min \\((${TIERS.join('|')})\\)$`);

/**
 * The seconds and tier a `talk_time` row (`amount_millicents` signed as posted) says it billed; null when its
 * description does not say so, or says something its amount does not match (it was not written by `bill`).
 */
export function billedTalkTime(row: { amount_millicents: bigint; description: string }): BilledTalkTime | null {
  const match = BILLED.exec(row.description);
  if (!match) return null;
  const seconds = Number(match[1]);
  const tier = match[2] as Tier;
  if (!Number.isSafeInteger(seconds) || talkTimeCharge(seconds, tier) !== -row.amount_millicents) return null;
  return { seconds, tier, chargeMillicents: -row.amount_millicents };
}

/** A correction of a billed call: what to post (signed as the ledger posts it) and the seconds to add to its usage. */
export interface TalkTimeAdjustment {
  /** Negative: the call was longer and costs more; positive: a credit; zero: nothing to post. */
  amountMillicents: bigint;
  /** Signed: what the month's usage gains (or loses) with the correction. */
  seconds: number;
  /** What the call costs at its corrected duration, at the tier it was billed at. */
  correctedChargeMillicents: bigint;
}

/**
 * The correction that leaves the call charged exactly what billing it once at `correctedSeconds` would have: the
 * corrected charge at the tier it was billed at, less what was charged. Talk time is priced by the second at the
 * tier's rate whatever the month's usage (the allowance is a cap on answering, not free minutes: ADR 0013), so the
 * difference depends only on the two durations and the tier; the seconds go to the month the call was counted in.
 */
export function talkTimeAdjustment(billed: BilledTalkTime, correctedSeconds: number): TalkTimeAdjustment {
  const corrected = talkTimeCharge(correctedSeconds, billed.tier);
  return {
    amountMillicents: billed.chargeMillicents - corrected,
    seconds: correctedSeconds - billed.seconds,
    correctedChargeMillicents: corrected,
  };
}

/** The adjustment row's description: the call, its corrected and billed durations and the rate the difference is at. */
export function talkTimeAdjustmentDescription(
  callSid: string,
  numberId: string,
  billed: BilledTalkTime,
  correctedSeconds: number,
): string {
  const delta = correctedSeconds - billed.seconds;
  const signed = delta > 0 ? `+${delta}` : `${delta}`;
  return `Call ${callSid} on ${numberId} corrected: ${correctedSeconds} s, not the ${billed.seconds} s billed (${signed} s at ${ratePerMinute(billed.tier)}, ${billed.tier})`;
}
