// The fault tests' accounting, without I/O: from what the traffic sent and what the system then shows (receivers'
// arrivals, calls lists, ledgers, delivery logs, numbers), what was lost (must be 0) and what was duplicated.
// chaos/traffic.mjs and chaos/scenarios.mjs gather the inputs; lib/guards.mjs `chaosVerdict` judges the results.
import { countBy, summarize } from '../lib/stats.mjs';

const twice = (counts) => [...counts].filter(([, n]) => n > 1);

/**
 * A run of calls under faults (`traffic`: { accepted: Map(SID -> { sent }), refused: [...], sent }) against what the
 * fleet's numbers (`numberIds`) received (`arrivals`, lib/receiver.mjs), what their accounts list (`listed`: Map(SID
 * -> times listed)) and what they were billed for talk time (`billed`: Map(SID -> charges)). Every accepted call
 * must be delivered, listed and billed, each once; a delivery repeated after a crash is counted, not a failure
 * (at least once, ADR 0075). The SIDs behind every count that is not 0 are kept as evidence (20 at most).
 */
export function deliveryAccounting({ traffic, arrivals, numberIds, listed, billed }) {
  const { accepted } = traffic;
  const handled = new Map();
  let invalidSignatures = 0;
  const firstArrival = new Map();
  for (const arrival of arrivals) {
    if (!numberIds.has(arrival.number_id)) continue;
    if (arrival.valid === false) invalidSignatures += 1;
    if (!arrival.handled) continue;
    handled.set(arrival.call_sid, (handled.get(arrival.call_sid) ?? 0) + 1);
    if (accepted.has(arrival.call_sid) && !firstArrival.has(arrival.call_sid))
      firstArrival.set(arrival.call_sid, arrival.received);
  }
  const missing = (counts) => [...accepted.keys()].filter((sid) => !counts.has(sid));
  const notDelivered = missing(handled);
  const notListed = missing(listed);
  const notBilled = missing(billed);
  const deliveredTwice = twice(handled);
  const recordedDespiteError = [...listed.keys()].filter((sid) => !accepted.has(sid));
  return {
    sent: traffic.sent,
    accepted: accepted.size,
    refused: traffic.refused.length,
    refused_by_code: countBy(traffic.refused, (r) => `${r.status} ${r.code ?? ''}`.trim()),
    refused_answered_after: summarize(traffic.refused.map((r) => r.answered_after_ms)),
    delivered: accepted.size - notDelivered.length,
    lost_by_check: { delivery: notDelivered.length, calls_list: notListed.length, billing: notBilled.length },
    duplicated_by_check: {
      delivery: deliveredTwice.reduce((s, [, n]) => s + n - 1, 0),
      calls_list: twice(listed).length,
      billing: twice(billed).length,
    },
    recorded_despite_error: recordedDespiteError.length,
    delivered_despite_error: recordedDespiteError.filter((sid) => handled.has(sid)).length,
    invalid_signatures: invalidSignatures,
    // From the report's sending to its first handled arrival.
    delivery_latency: summarize([...firstArrival].map(([sid, at]) => at - accepted.get(sid).sent)),
    evidence: {
      not_delivered: notDelivered.slice(0, 20),
      not_listed: notListed.slice(0, 20),
      not_billed: notBilled.slice(0, 20),
      delivered_twice: deliveredTwice.slice(0, 20),
      recorded_despite_error: recordedDespiteError.slice(0, 20),
    },
  };
}

/** Total lost and duplicated over all checks of an accounting. */
export function totals(result) {
  return {
    lost: Object.values(result.lost_by_check).reduce((a, b) => a + b, 0),
    duplicated: Object.values(result.duplicated_by_check).reduce((a, b) => a + b, 0),
  };
}

/**
 * One kind of bad receiver (`kind`: { name, expect, never }) over its calls (`sids`, accepted at `accepted`'s times)
 * and its port: what it was sent (`arrivals`) and the dispatcher's attempts (`log`: Map(SID -> attempts)). Lost: a
 * call never handled; for the receiver that never answers, a call given up before its 5 attempts.
 */
export function receiverKind({ kind, sids, port, arrivals, log, accepted }) {
  const handledArrivals = arrivals.filter((a) => a.handled && sids.includes(a.call_sid));
  const handled = countBy(handledArrivals, (a) => a.call_sid);
  const attempts = sids.map((sid) => (log.get(sid) ?? []).length);
  const deliveredAt = sids
    .map((sid) => (log.get(sid) ?? []).find((a) => a.status_code >= 200 && a.status_code < 300)?.attempt)
    .filter(Boolean);
  const latencies = Object.keys(handled).map(
    (sid) => handledArrivals.find((a) => a.call_sid === sid).received - accepted.get(sid).sent,
  );
  const delivered = Object.keys(handled).length;
  return {
    receiver: kind.name,
    expected: kind.expect,
    events: sids.length,
    delivered,
    lost: kind.never ? attempts.filter((n) => n < 5).length : sids.length - delivered,
    duplicated: Object.values(handled).reduce((s, n) => s + n - 1, 0),
    attempts: countBy(attempts, String),
    delivered_at_attempt: countBy(deliveredAt, String),
    requests_seen_by_receiver: arrivals.filter((a) => a.port === port).length,
    latency: summarize(latencies),
  };
}

/**
 * Concurrent provisions on one account whose balance covers `covers` numbers: `answers` [{ status, id }], the
 * numbers it lists, the `number_month` charges in its ledger and its balance after. At most min(covers, 3 by
 * velocity) may succeed. Lost: a 201 whose number is not listed or not charged. Duplicated: a number nobody was told
 * of (listed without a 201), or a number charged twice. A rule is broken by more numbers than allowed or a negative
 * balance.
 */
export function provisionsVerdict({ answers, listed, charges, balanceAfterCents, covers, concurrent }) {
  const velocityLimit = 3;
  const expected = Math.min(covers, velocityLimit, concurrent);
  const createdIds = answers.filter((a) => a.status === 201).map((a) => a.id);
  const listedIds = new Set(listed.map((n) => n.id));
  const chargedIds = countBy(charges, (e) => /num_\d+/.exec(e.reference)?.[0] ?? e.reference);
  const lostAnswers = createdIds.filter((id) => !listedIds.has(id) || !chargedIds[id]);
  const ghosts = listed.filter((n) => !createdIds.includes(n.id)).map((n) => n.id);
  const doubleCharges = Object.values(chargedIds).filter((n) => n > 1).length;
  return {
    binding_rule:
      covers < velocityLimit ? 'balance ($5 each)' : `velocity (${velocityLimit} provisions per hour per account)`,
    expected_successes: expected,
    answered_201: createdIds.length,
    answers_by_code: countBy(answers, (a) => `${a.status} ${a.code ?? ''}`.trim()),
    listed: listed.length,
    charged: charges.length,
    lost: lostAnswers.length,
    duplicated: ghosts.length + doubleCharges,
    rule_broken: listed.length > expected || balanceAfterCents < 0,
    below_allowance: Math.max(0, expected - createdIds.length),
    detail: {
      created_but_not_listed_or_charged: lostAnswers,
      listed_without_a_201: ghosts,
      double_charges: doubleCharges,
    },
  };
}

/**
 * A retention sweep killed midway and run again over `calls` expired calls: lost is whatever is left (recordings on
 * calls, transcripts, objects, queued deletions); twice is a call counted by both sweeps, or a second sweep claiming
 * more than it marked.
 */
export function sweepVerdict({ calls, byFirst, bySecond, secondClaimed, left }) {
  const lost = left.recordings + left.transcripts + left.objects + left.queued;
  const duplicated = Math.max(0, byFirst + bySecond - calls) + Math.abs(secondClaimed - bySecond);
  return { lost, duplicated, interrupted: byFirst > 0 && byFirst < calls };
}
