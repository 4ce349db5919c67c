// Traffic for fault tests, and the accounting that ends each one: what was accepted, what arrived, what was lost,
// what was duplicated. A call counts as accepted when the operator route answered 202 with its call SID (the
// provider's report was taken); every accepted call must then be (1) listed once in GET /v1/calls of its account,
// (2) delivered to its webhook receiver (a 2xx answer to a validly signed request) and (3) billed once for its talk
// time in its account's ledger. A report answered with an error (the service was down) is the provider's to retry;
// if it was recorded all the same, it is counted apart, as "recorded despite an error answer", not as a loss.
import { performance } from 'node:perf_hooks';
import { Admin, callerNumber, pool } from '../lib/clients.mjs';
import { say, sleep } from '../lib/common.mjs';
import { summarize } from '../lib/stats.mjs';

const now = () => performance.timeOrigin + performance.now();

/**
 * Reports calls to `numbers` (round robin) at `rate` per second for `durationS` seconds, an open loop that does not
 * slow down when the system does; runs `faults` ([{ at: seconds, name, run }]) at their times meanwhile. `body(i)`
 * gives the i-th call's report beyond `to` and `caller` (default: a completed 61 s call).
 */
export async function callsUnderFaults(
  system,
  {
    numbers,
    rate,
    durationS,
    faults = [],
    requestTimeoutMs = 40_000,
    body = () => ({ duration_sec: 61, outcome: 'order' }),
  },
) {
  const admin = new Admin(system);
  const accepted = new Map(); // call_sid -> { number, sent, index }
  const refused = []; // { status, code, at }
  const events = [];
  const started = now();
  const total = Math.round(rate * durationS);
  const pending = [];
  const faultRuns = faults.map(async (fault) => {
    const wait = started + fault.at * 1000 - now();
    if (wait > 0) await sleep(wait);
    const at = (now() - started) / 1000;
    say(`  t=${at.toFixed(1)} s: ${fault.name}`);
    try {
      const detail = await fault.run();
      events.push({ at_s: Math.round(at * 10) / 10, fault: fault.name, ...(detail ?? {}) });
    } catch (error) {
      events.push({ at_s: Math.round(at * 10) / 10, fault: fault.name, error: error.message });
    }
  });
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - now();
    if (wait > 1) await sleep(wait);
    const number = numbers[i % numbers.length];
    const sent = now();
    pending.push(
      admin
        .raw(
          'POST',
          '/admin/provider/calls',
          { to: number.phone_number, caller: callerNumber(), ...body(i) },
          { timeoutMs: requestTimeoutMs },
        )
        .then(
          (answer) => {
            if (answer.status === 202) accepted.set(answer.body.call_sid, { number, sent, index: i });
            else
              refused.push({
                status: answer.status,
                code: answer.body?.error?.code,
                at_s: (sent - started) / 1000,
                answered_after_ms: now() - sent,
              });
          },
          (error) =>
            refused.push({
              status: 0,
              code: error.name === 'TimeoutError' ? 'client_timeout' : 'network_error',
              at_s: (sent - started) / 1000,
              answered_after_ms: now() - sent,
            }),
        ),
    );
  }
  await Promise.all(pending);
  await Promise.all(faultRuns);
  return { accepted, refused, events, sent: total, started, duration_s: (now() - started) / 1000 };
}

/** Waits until every accepted call was answered 2xx by its receiver, or `timeoutMs`. Returns the time it took. */
export async function waitForDeliveries(receiver, accepted, timeoutMs) {
  const started = Date.now();
  const delivered = () =>
    new Set(receiver.arrivals.filter((a) => a.handled && accepted.has(a.call_sid)).map((a) => a.call_sid)).size;
  while (Date.now() - started < timeoutMs && delivered() < accepted.size) await sleep(250);
  await sleep(1000); // late duplicates
  return (Date.now() - started) / 1000;
}

/**
 * The accounting. `fleet`: [{ account, api, numbers }]. Returns counts (lost and duplicated per check) and the
 * SIDs behind every non-zero count, so a failure can be traced in the logs.
 */
export async function account(system, { fleet, receiver, traffic, billingTimeoutMs = 60_000 }) {
  const admin = new Admin(system);
  const numberIds = new Set(fleet.flatMap((f) => f.numbers.map((n) => n.id)));
  const { accepted } = traffic;

  // 1. Deliveries, as the receivers saw them.
  const handled = new Map();
  let invalidSignatures = 0;
  for (const arrival of receiver.arrivals) {
    if (!numberIds.has(arrival.number_id)) continue;
    if (arrival.valid === false) invalidSignatures += 1;
    if (arrival.handled) handled.set(arrival.call_sid, (handled.get(arrival.call_sid) ?? 0) + 1);
  }
  const notDelivered = [...accepted.keys()].filter((sid) => !handled.has(sid));
  const deliveredTwice = [...handled].filter(([, n]) => n > 1);

  // 2. The calls lists.
  const listed = new Map();
  for (const { api } of fleet)
    for (const call of await api.all('/calls')) listed.set(call.id, (listed.get(call.id) ?? 0) + 1);
  const notListed = [...accepted.keys()].filter((sid) => !listed.has(sid));
  const listedTwice = [...listed].filter(([, n]) => n > 1);
  const recordedDespiteError = [...listed.keys()].filter((sid) => !accepted.has(sid));
  const deliveredDespiteError = recordedDespiteError.filter((sid) => handled.has(sid));

  // 3. Talk time in the ledgers (billing follows call.completed asynchronously: wait for it to settle).
  const billed = new Map();
  const deadline = Date.now() + billingTimeoutMs;
  for (;;) {
    billed.clear();
    for (const { account: acct } of fleet) {
      for (const entry of await admin.ledger(acct.id)) {
        if (entry.kind !== 'talk_time') continue;
        const sid = entry.reference.replace(/^talk_time:/, '');
        billed.set(sid, (billed.get(sid) ?? 0) + 1);
      }
    }
    const missing = [...listed.keys()].filter((sid) => !billed.has(sid));
    if (missing.length === 0 || Date.now() > deadline) break;
    await sleep(1000);
  }
  const notBilled = [...accepted.keys()].filter((sid) => !billed.has(sid));
  const billedTwice = [...billed].filter(([, n]) => n > 1);

  // Latency of the deliveries (first handled arrival after the report was sent).
  const firstArrival = new Map();
  for (const arrival of receiver.arrivals)
    if (arrival.handled && accepted.has(arrival.call_sid) && !firstArrival.has(arrival.call_sid))
      firstArrival.set(arrival.call_sid, arrival.received);
  const latencies = [...firstArrival].map(([sid, at]) => at - accepted.get(sid).sent);

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
      calls_list: listedTwice.length,
      billing: billedTwice.length,
    },
    recorded_despite_error: recordedDespiteError.length,
    delivered_despite_error: deliveredDespiteError.length,
    invalid_signatures: invalidSignatures,
    delivery_latency: summarize(latencies),
    evidence: {
      not_delivered: notDelivered.slice(0, 20),
      not_listed: notListed.slice(0, 20),
      not_billed: notBilled.slice(0, 20),
      delivered_twice: deliveredTwice.slice(0, 20),
      recorded_despite_error: recordedDespiteError.slice(0, 20),
    },
  };
}

/** Attempts per event from the operator's delivery log, for the numbers given. */
export async function deliveryLog(system, numbers) {
  const admin = new Admin(system);
  const byEvent = new Map();
  await pool(numbers, 8, async (number) => {
    const { data } = await admin.deliveries(number.id);
    for (const attempt of data) {
      const list = byEvent.get(attempt.call_sid) ?? [];
      list.push(attempt);
      byEvent.set(attempt.call_sid, list);
    }
  });
  return byEvent;
}

export function countBy(list, key) {
  const counts = {};
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** Total lost and duplicated over all checks of an accounting. */
export function totals(result) {
  return {
    lost: Object.values(result.lost_by_check).reduce((a, b) => a + b, 0),
    duplicated: Object.values(result.duplicated_by_check).reduce((a, b) => a + b, 0),
  };
}
