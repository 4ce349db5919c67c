// Traffic for fault tests, and the accounting that ends each one: what was accepted, what arrived, what was lost,
// what was duplicated. A call counts as accepted when the operator route answered 202 with its call SID (the
// provider's report was taken); every accepted call must then be (1) listed once in GET /v1/calls of its account,
// (2) delivered to its webhook receiver (a 2xx answer to a validly signed request) and (3) billed once for its talk
// time in its account's ledger. A report answered with an error (the service was down) is the provider's to retry;
// if it was recorded all the same, it is counted apart, as "recorded despite an error answer", not as a loss.
import { Admin, callerNumber, pool } from '../lib/clients.mjs';
import { say, sleep, wallNow as now } from '../lib/common.mjs';
import { deliveryAccounting } from './accounting.mjs';

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
 * The accounting (chaos/accounting.mjs) of `traffic` to `fleet` ([{ account, api, numbers }]): the calls lists, and
 * the ledgers once every listed call was billed (billing follows call.completed asynchronously) or after
 * `billingTimeoutMs`.
 */
export async function account(system, { fleet, receiver, traffic, billingTimeoutMs = 60_000 }) {
  const admin = new Admin(system);
  const listed = new Map();
  for (const { api } of fleet)
    for (const call of await api.all('/calls')) listed.set(call.id, (listed.get(call.id) ?? 0) + 1);
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
  const numberIds = new Set(fleet.flatMap((f) => f.numbers.map((n) => n.id)));
  return deliveryAccounting({ traffic, arrivals: receiver.arrivals, numberIds, listed, billed });
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
