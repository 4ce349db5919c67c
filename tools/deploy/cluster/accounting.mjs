// What the run must end with, counted from the system's own answers once the load has stopped and the events have
// drained: every call answered 202 recorded once (the account's calls list), billed once (one talk-time row of the
// right amount in its ledger) and delivered at least once with a single event id (the receiver's log); every number
// provisioned listed and charged its first month once; every ledger summing to its balance; every lost-and-found
// flow's item returned and claim reunited.
import { setTimeout as sleep } from 'node:timers/promises';
import { CALL_CHARGE_MILLICENTS, NUMBER_MONTH_MILLICENTS } from './load.mjs';

/** Waits until every accepted call reached the receiver (or `timeoutMs`); returns the seconds it took. */
export async function waitForDeliveries(load, receiver, timeoutMs) {
  const started = Date.now();
  const missing = () => [...load.accepted.keys()].filter((sid) => !receiver.calls.has(sid)).length;
  while (missing() > 0 && Date.now() - started < timeoutMs) await sleep(1000);
  await sleep(2000); // late duplicates
  return { seconds: (Date.now() - started) / 1000, missing: missing() };
}

export async function account(client, load, receiver, { billingTimeoutMs = 120_000 } = {}) {
  const problems = [];
  const note = (kind, detail) => problems.push({ kind, ...detail });

  // Deliveries, as the receiver saw them.
  let deliveries = 0;
  let duplicatedDeliveries = 0;
  let lostDeliveries = 0;
  for (const sid of load.accepted.keys()) {
    const seen = receiver.calls.get(sid);
    if (!seen) {
      lostDeliveries += 1;
      note('not delivered', { call_sid: sid });
      continue;
    }
    deliveries += seen.deliveries;
    duplicatedDeliveries += seen.deliveries - 1;
    if (seen.events.size !== 1)
      note('delivered with more than one event id', { call_sid: sid, events: [...seen.events] });
  }

  // Calls lists, numbers lists and ledgers, per account; billing settles after call.completed: wait for it.
  const listed = new Map();
  const numbersListed = new Map();
  for (const acct of load.accounts) {
    for (const call of (await client.all('public', '/calls', { key: acct.key })).items)
      listed.set(call.id, (listed.get(call.id) ?? 0) + 1);
    for (const number of (await client.all('public', '/numbers', { key: acct.key })).items)
      numbersListed.set(number.id, (numbersListed.get(number.id) ?? 0) + 1);
  }
  let ledgers;
  const deadline = Date.now() + billingTimeoutMs;
  for (;;) {
    ledgers = [];
    for (const acct of load.accounts) {
      const { items, last } = await client.all('admin', `/admin/accounts/${acct.id}/ledger`);
      ledgers.push({ acct, entries: items, balance: last.balance_millicents });
    }
    const billed = new Set(
      ledgers
        .flatMap((l) => l.entries)
        .filter((e) => e.kind === 'talk_time')
        .map((e) => e.reference),
    );
    if ([...listed.keys()].every((sid) => billed.has(`talk_time:${sid}`)) || Date.now() > deadline) break;
    await sleep(2000);
  }

  const talkTime = new Map();
  const numberMonths = new Map();
  for (const { acct, entries, balance } of ledgers) {
    const sum = entries.reduce((total, e) => total + e.amount_millicents, 0);
    if (sum !== balance) note('ledger does not sum to the balance', { account: acct.id, sum, balance });
    const references = new Set();
    for (const entry of entries) {
      if (references.has(entry.reference))
        note('ledger reference twice', { account: acct.id, reference: entry.reference });
      references.add(entry.reference);
      if (entry.kind === 'talk_time') {
        const sid = entry.reference.replace(/^talk_time:/, '');
        talkTime.set(sid, (talkTime.get(sid) ?? 0) + 1);
        if (entry.amount_millicents !== CALL_CHARGE_MILLICENTS)
          note('talk time charged a wrong amount', { call_sid: sid, amount_millicents: entry.amount_millicents });
      }
      if (entry.kind === 'number_month') {
        const numberId = entry.reference.split(':')[1];
        numberMonths.set(numberId, (numberMonths.get(numberId) ?? 0) + 1);
        if (entry.amount_millicents !== NUMBER_MONTH_MILLICENTS)
          note('first month charged a wrong amount', {
            number_id: numberId,
            amount_millicents: entry.amount_millicents,
          });
      }
    }
  }

  let lostCalls = 0;
  let duplicatedCalls = 0;
  for (const sid of load.accepted.keys()) {
    const times = listed.get(sid) ?? 0;
    const billed = talkTime.get(sid) ?? 0;
    if (times === 0 || billed === 0) {
      lostCalls += 1;
      note(times === 0 ? 'call not recorded' : 'call not billed', { call_sid: sid });
    }
    if (times > 1 || billed > 1) {
      duplicatedCalls += 1;
      note('call recorded or billed twice', { call_sid: sid, listed: times, billed });
    }
  }
  // A report answered with an error may still have been recorded (the answer was lost, not the call): then it
  // must be billed once like any other, and is counted apart, not as a loss.
  const recordedDespiteError = [...listed.keys()].filter((sid) => !load.accepted.has(sid));
  for (const sid of recordedDespiteError)
    if ((talkTime.get(sid) ?? 0) !== 1)
      note('call recorded despite an error answer, not billed once', { call_sid: sid });

  let lostNumbers = 0;
  for (const number of load.numbers) {
    if ((numbersListed.get(number.id) ?? 0) !== 1 || (numberMonths.get(number.id) ?? 0) !== 1) {
      lostNumbers += 1;
      note('number not listed or not charged once', {
        number_id: number.id,
        listed: numbersListed.get(number.id) ?? 0,
        charged: numberMonths.get(number.id) ?? 0,
      });
    }
  }

  // Lost and found: each completed flow's item returned and claim reunited, read back.
  let flowsChecked = 0;
  for (const flow of load.flows.filter((f) => f.reunited)) {
    const query = `?location_id=${flow.account.locationId}`;
    const item = await client.send('public', 'GET', `/lostfound/found-items/${flow.itemId}${query}`, {
      key: flow.account.key,
    });
    const claim = await client.send('public', 'GET', `/lostfound/claims/${flow.claimId}${query}`, {
      key: flow.account.key,
    });
    flowsChecked += 1;
    if (item.body?.status !== 'returned' || claim.body?.status !== 'reunited')
      note('lost-and-found flow not read back as reunited', { item: item.body?.status, claim: claim.body?.status });
  }

  return {
    calls: load.accepted.size,
    calls_refused: load.refused.length,
    refused_by: countBy(load.refused, (r) => `${r.status} ${r.code ?? ''}`.trim()),
    recorded_despite_error: recordedDespiteError.length,
    deliveries,
    lost: lostCalls + lostDeliveries + lostNumbers,
    duplicated: duplicatedCalls,
    duplicated_deliveries: duplicatedDeliveries,
    numbers: load.numbers.length,
    provisions_refused: countBy(load.provisionsRefused, (r) => `${r.status} ${r.code ?? ''}`.trim()),
    accounts: load.accounts.length,
    lostfound_flows: load.flows.length,
    lostfound_reunited: flowsChecked,
    lostfound_failed: countBy(
      load.flows.filter((f) => f.failed),
      (f) => `${f.failed.step} ${f.failed.status} ${f.failed.code ?? ''}`.trim(),
    ),
    receiver: receiver.stats,
    problems,
  };
}

export function countBy(list, key) {
  const counts = {};
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
