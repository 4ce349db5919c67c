// The fault tests. Each provisions numbers of its own, runs its traffic, injects its faults, waits for the system to
// settle, and ends with the accounting: what was lost (must be 0) and what was duplicated.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Admin, Api, provisionFleet } from '../lib/clients.mjs';
import { say, sleep } from '../lib/common.mjs';
import { liveAccounting, livePlan, planTalkTimeCents } from '../lib/live-calls-verdict.mjs';
import { countBy, round, summarize } from '../lib/stats.mjs';
import { fleetWithReceiver as receivingFleet } from '../lib/receiver.mjs';
import { provisionsVerdict, receiverKind, sweepVerdict, totals } from './accounting.mjs';
import { watchLiveCalls, witnessLivePublishes } from './live-stream.mjs';
import { account, callsUnderFaults, deliveryLog, waitForDeliveries } from './traffic.mjs';

/** Numbers with webhooks to receivers of their own (one port per account), and the receiver process. */
async function fleetWithReceiver(system, tls, options) {
  const fleet = await receivingFleet(system, tls, options);
  await sleep(1000); // number.provisioned reaches calls-media's directory
  return fleet;
}

/** Kill a service with SIGKILL, leave it down for `downMs`, start it again; resolves when it is healthy. */
function killAndRestart(system, app, downMs) {
  return {
    name: `kill -9 ${app}, restart after ${downMs / 1000} s`,
    run: async () => {
      const pid = system.pid(app);
      await system.kill(app, 'SIGKILL');
      await sleep(downMs);
      const started = Date.now();
      system.start(app);
      await system.waitHealthy(app, 90_000);
      return { pid, healthy_after_restart_s: (Date.now() - started) / 1000 };
    },
  };
}

/**
 * Calls to 30 numbers of their own at `rate` for `duration` s while `faults(duration)` happen, then the system ready
 * again and every delivery drained (at most `drainTimeout` s), and the accounting.
 */
async function callsThroughFaults(system, { tls, rate, duration, drainTimeout, name, fleetName, faults }) {
  const { fleet, receiver, numbers } = await fleetWithReceiver(system, tls, { numbers: 30, name: fleetName });
  try {
    const traffic = await callsUnderFaults(system, { numbers, rate, durationS: duration, faults: faults(duration) });
    await system.waitReady(120_000);
    const drain_s = await waitForDeliveries(receiver, traffic.accepted, drainTimeout * 1000);
    const result = await account(system, { fleet, receiver, traffic });
    return { name, rate, duration_s: duration, faults: traffic.events, drain_s, ...result, ...totals(result) };
  } finally {
    await receiver.stop();
  }
}

// ------------------------------------------------------------------------------------------------ kill -9
export function killServices(system, options) {
  say(
    `chaos: kill -9 webhook-dispatcher, calls-media and numbers-billing under ${options.rate} calls/s for ${options.duration} s`,
  );
  return callsThroughFaults(system, {
    ...options,
    name: 'kill -9 dispatcher, calls-media, numbers-billing',
    fleetName: 'Chaos kill',
    faults: (duration) =>
      ['webhook-dispatcher', 'calls-media', 'numbers-billing'].map((app, i) => ({
        at: ((i + 1) * duration) / 5,
        ...killAndRestart(system, app, 2000),
      })),
  });
}

// ------------------------------------------------------------------------------------------------ NATS restart
export function restartNats(system, { downMs = 4000, signal = 'SIGTERM', ...options }) {
  if (!system.nats) throw new Error('the NATS restart test needs the system on a nats-server of its own');
  say(
    `chaos: restart NATS (${signal}, down ${downMs / 1000} s) under ${options.rate} calls/s for ${options.duration} s`,
  );
  return callsThroughFaults(system, {
    ...options,
    name: `restart NATS (${signal}) during load`,
    fleetName: 'Chaos NATS',
    faults: (duration) => [
      {
        at: duration / 3,
        name: `stop nats-server (${signal}), start it again after ${downMs / 1000} s`,
        run: async () => {
          await system.nats.stop(signal);
          await sleep(downMs);
          await system.nats.start();
          const started = Date.now();
          await system.waitReady(120_000);
          return { ready_after_restart_s: (Date.now() - started) / 1000 };
        },
      },
    ],
  });
}

// ------------------------------------------------------------------------------------------------ bad receivers
const RECEIVER_KINDS = [
  { name: 'healthy', behaviour: { mode: 'ok' }, expect: 'delivered at attempt 1' },
  {
    name: 'answers in 1.5 s',
    behaviour: { mode: 'slow', delayMs: 1500 },
    expect: 'delivered at attempt 1 (inside the time-out)',
  },
  { name: 'hangs on the first attempt', behaviour: { mode: 'hang', times: 1 }, expect: 'delivered at attempt 2' },
  { name: 'resets the first two attempts', behaviour: { mode: 'reset', times: 2 }, expect: 'delivered at attempt 3' },
  {
    name: 'hangs for good',
    behaviour: { mode: 'hang' },
    expect: 'never delivered; given up after exactly 5 attempts',
    never: true,
  },
];

export async function badReceivers(system, { tls, drainTimeout, callsPerKind = 12 }) {
  const timeoutMs = Number(system.envFor('webhook-dispatcher').WEBHOOK_TIMEOUT_MS ?? 10_000);
  say(`chaos: receivers that hang, answer slowly and reset connections (dispatcher time-out ${timeoutMs} ms)`);
  const { fleet, receiver, numbers, ports } = await fleetWithReceiver(system, tls, {
    numbers: RECEIVER_KINDS.length * 3,
    name: 'Chaos receivers',
    behaviours: RECEIVER_KINDS.map((kind) => kind.behaviour),
  });
  try {
    const kindOf = new Map(fleet.flatMap((f, a) => f.numbers.map((n) => [n.id, RECEIVER_KINDS[a]])));
    // Calls interleaved over every kind of receiver, so the bad ones misbehave while the healthy one is served.
    const traffic = await callsUnderFaults(system, {
      numbers,
      rate: 10,
      durationS: (callsPerKind * numbers.length) / 3 / 10,
    });
    const byKind = (kind) =>
      [...traffic.accepted].filter(([, { number }]) => kindOf.get(number.id) === kind).map(([sid]) => sid);

    // Done when every event meant to arrive has, and every event of the dead receiver has its 5 attempts.
    const started = Date.now();
    const neverKind = RECEIVER_KINDS.find((k) => k.never);
    const neverNumbers = fleet[RECEIVER_KINDS.indexOf(neverKind)].numbers;
    const neverSids = new Set(byKind(neverKind));
    const shouldArrive = new Map([...traffic.accepted].filter(([sid]) => !neverSids.has(sid)));
    await waitForDeliveries(receiver, shouldArrive, drainTimeout * 1000);
    let log;
    while (Date.now() - started < drainTimeout * 1000) {
      log = await deliveryLog(system, neverNumbers);
      const finished = [...neverSids].filter(
        (sid) =>
          (log.get(sid) ?? []).length >= 5 &&
          !(log.get(sid) ?? []).some((a) => a.status_code === null && a.error === null),
      );
      if (finished.length === neverSids.size) break;
      await sleep(1000);
    }
    await sleep(2 * timeoutMs); // a sixth attempt, if there were one, would show now
    log = await deliveryLog(system, numbers);
    const settle_s = (Date.now() - started) / 1000;

    const result = await account(system, { fleet, receiver, traffic });
    const kinds = RECEIVER_KINDS.map((kind, index) =>
      receiverKind({
        kind,
        sids: byKind(kind),
        port: ports[index],
        arrivals: receiver.arrivals,
        log,
        accepted: traffic.accepted,
      }),
    );
    return {
      name: 'receivers that hang, answer slowly, reset',
      dispatcher_timeout_ms: timeoutMs,
      settle_s: round(settle_s, 1),
      kinds,
      accepted: result.accepted,
      refused: result.refused,
      lost: kinds.reduce((s, k) => s + k.lost, 0) + result.lost_by_check.calls_list + result.lost_by_check.billing,
      duplicated:
        kinds.reduce((s, k) => s + k.duplicated, 0) +
        result.duplicated_by_check.calls_list +
        result.duplicated_by_check.billing,
      checks: {
        lost: result.lost_by_check,
        duplicated: result.duplicated_by_check,
        invalid_signatures: result.invalid_signatures,
      },
    };
  } finally {
    await receiver.stop();
  }
}

// ------------------------------------------------------------------------------------------------ provisions
/**
 * `concurrent` provisions at once on one account whose balance covers `covers` numbers, its number limit raised
 * out of the way. Every rule that may refuse is left as it is (balance, velocity 3 per hour, limit).
 */
export async function concurrentProvisions(system, { concurrent = 1000, covers = 10, area = '212' }) {
  const admin = new Admin(system);
  say(`chaos: ${concurrent} concurrent provisions against a balance that covers ${covers} numbers`);
  await admin.setStock(area, concurrent + 100);
  const created = await admin.createAccount({
    name: `Chaos provisions ${covers}`,
    balance_cents: covers * 500,
    tier: 'starter',
  });
  await admin.updateAccount(created.id, { number_limit: concurrent });
  const key = await admin.createKey(created.id);
  const api = new Api(system, key.key);

  const answers = new Array(concurrent);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrent }, async (_, i) => {
      const sent = performance.now();
      try {
        const answer = await api.provision(
          { business_phone: `+1${area}555${String(1000 + i).padStart(4, '0')}`, area_code: area },
          { timeoutMs: 120_000 },
        );
        answers[i] = {
          status: answer.status,
          code: answer.body?.error?.code,
          id: answer.body?.id,
          ms: performance.now() - sent,
        };
      } catch (error) {
        answers[i] = {
          status: 0,
          code: error.name === 'TimeoutError' ? 'client_timeout' : 'network_error',
          ms: performance.now() - sent,
        };
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await sleep(1000);

  const listed = await api.all('/numbers');
  const charges = (await admin.ledger(created.id)).filter((e) => e.kind === 'number_month');
  const after = await admin.getAccount(created.id);
  return {
    name: `${concurrent} concurrent provisions, balance covers ${covers}`,
    concurrent,
    balance_covers: covers,
    ...provisionsVerdict({ answers, listed, charges, balanceAfterCents: after.balance_cents, covers, concurrent }),
    balance_before_cents: covers * 500,
    balance_after_cents: after.balance_cents,
    overspent: after.balance_cents < 0,
    seconds: round(elapsed, 2),
    answer_ms: summarize(answers.map((a) => a.ms)),
  };
}

// ------------------------------------------------------------------------------------------------ kill during a sweep
/**
 * `kill -9` calls-media in the middle of a retention sweep, restart it, sweep again: every expired recording and
 * transcript must be gone exactly once. Calls are written straight into calls-media's database with a small object
 * each (a sweep over a few thousand calls takes long enough to be caught midway); the first sweep runs `as if` at
 * T1 and the second at T2, so each call's `recording_deleted_at` says which sweep deleted it.
 */
export async function killDuringSweep(system, { calls = 6000 } = {}) {
  say(`chaos: kill -9 calls-media during a retention sweep of ${calls} calls`);
  const admin = new Admin(system);
  const account = await admin.createAccount({ name: 'Chaos sweep' });
  const api = new Api(system, (await admin.createKey(account.id)).key);
  const settings = await api.raw('PATCH', '/settings/data', { recordings_days: 30, transcripts_days: 30 });
  if (settings.status !== 200) throw new Error(`PATCH /v1/settings/data answered ${settings.status}`);
  const recordings = join(system.dir, 'data', 'calls-media', 'recordings');
  await mkdir(recordings, { recursive: true });
  const keys = Array.from({ length: calls }, (_, i) => `CAsweep${String(i).padStart(8, '0')}.mp3`);
  await Promise.all(keys.map((key) => writeFile(join(recordings, key), 'ID3 chaos')));
  await system.sql(
    'calls-media',
    `INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec,
                        started_at, has_transcript, recording_key, recording_size, recording_etag, summary)
     SELECT 'CAsweep' || lpad(i::text, 8, '0'), $1, 'num_1', '+14155550100', '+14155550199', 'inbound', 'completed',
            'order_placed', 60, now() - interval '90 days', true, 'CAsweep' || lpad(i::text, 8, '0') || '.mp3', 9, 'e', 'A call'
       FROM generate_series(0, $2::int - 1) AS i`,
    [account.id, calls],
  );
  await system.sql(
    'calls-media',
    `INSERT INTO transcript_turns (call_id, position, role, text)
     SELECT 'CAsweep' || lpad(i::text, 8, '0'), 0, 'caller', 'Hello' FROM generate_series(0, $1::int - 1) AS i`,
    [calls],
  );
  const t1 = new Date(Date.now() - 60_000).toISOString();
  const t2 = new Date().toISOString();
  const deletedAt = async (at) =>
    Number(
      (
        await system.sql(
          'calls-media',
          'SELECT count(*) AS n FROM calls WHERE account_id = $1 AND recording_deleted_at = $2::timestamptz',
          [account.id, at],
        )
      )[0].n,
    );

  // Its answer never comes (calls-media dies under it): the client gives up on it rather than wait for the gateway's
  // own time-out, and the test goes on.
  const first = admin.raw('POST', '/admin/calls/retention-sweep', { now: t1 }, { timeoutMs: 5_000 }).catch(() => null);
  let killedAfter = 0;
  for (const started = Date.now(); Date.now() - started < 60_000; await sleep(5)) {
    killedAfter = await deletedAt(t1);
    if (killedAfter > 0) break;
  }
  const pid = system.pid('calls-media');
  await system.kill('calls-media', 'SIGKILL');
  const pendingAtKill = Number(
    (await system.sql('calls-media', 'SELECT count(*) AS n FROM pending_object_deletions'))[0].n,
  );
  const byFirst = await deletedAt(t1);
  system.start('calls-media');
  await system.waitHealthy('calls-media', 90_000);
  const second = await admin.raw('POST', '/admin/calls/retention-sweep', { now: t2 }, { timeoutMs: 300_000 });
  const bySecond = await deletedAt(t2);
  const [left] = await system.sql(
    'calls-media',
    `SELECT count(*) FILTER (WHERE recording_key IS NOT NULL) AS recordings, count(*) FILTER (WHERE has_transcript) AS transcripts,
            count(*) FILTER (WHERE recording_deleted_at IS NULL) AS undeleted,
            (SELECT count(*) FROM transcript_turns t WHERE t.call_id LIKE 'CAsweep%') AS turns,
            (SELECT count(*) FROM pending_object_deletions) AS pending
       FROM calls WHERE account_id = $1`,
    [account.id],
  );
  await first;
  const remaining = (await readdir(recordings)).filter((name) => name.startsWith('CAsweep')).length;
  const checks = {
    killed_pid: pid,
    deleted_before_kill: killedAfter,
    deleted_by_first_sweep: byFirst,
    pending_objects_at_kill: pendingAtKill,
    second_sweep_answer: second.body,
    deleted_by_second_sweep: bySecond,
    recordings_left_on_calls: Number(left.recordings),
    transcripts_left: Number(left.transcripts) + Number(left.turns),
    objects_left_behind: remaining,
    queued_deletions_left: Number(left.pending),
  };
  const { lost, duplicated, interrupted } = sweepVerdict({
    calls,
    byFirst,
    bySecond,
    secondClaimed: second.body?.recordings_deleted ?? 0,
    left: {
      recordings: checks.recordings_left_on_calls,
      transcripts: checks.transcripts_left,
      objects: checks.objects_left_behind,
      queued: checks.queued_deletions_left,
    },
  });
  return {
    name: 'kill -9 calls-media during a retention sweep',
    calls,
    checks,
    lost,
    duplicated,
    duplicated_by_check: { calls_list: duplicated },
    interrupted,
  };
}

// ------------------------------------------------------------------------------------------------ live calls
/**
 * `calls` live calls (`live` on POST /admin/provider/calls, docs/live-calls.md) started over `spread` seconds on the
 * three numbers of one account, each with 4-6 turns 500-1000 ms apart (2.5-7 s of play). While they play, kill -9
 * calls-media and start it again: its calls are kept in `simulated_live_calls` and taken over once their leases run
 * out, ~10 s after their next step was due. While those play again, kill -9 the gateway and start it again. One
 * `GET /v1/calls/live` stream of the account stays open through the gateway meanwhile, resuming with Last-Event-ID.
 * Then, once no call of the run is in progress (at most `settleTimeout` s), every accepted call must be `completed`
 * and billed once, and none corrected afterwards.
 */
export async function killDuringLiveCalls(
  system,
  { calls = 40, spread = 4, seed = 1, settleTimeout = 90, billingTimeout = 60 },
) {
  const plan = livePlan({ calls, seed });
  const talkTimeCents = planTalkTimeCents(plan);
  // The numbers' first month ($5 each) and the plan's talk time twice over: no call goes unbilled for want of balance.
  const balanceCents = 3 * 500 + 2 * talkTimeCents + 10_000;
  say(
    `chaos: kill -9 calls-media, then the gateway, during ${calls} live calls started over ${spread} s ` +
      `(talk time $${(talkTimeCents / 100).toFixed(2)}, balance $${(balanceCents / 100).toFixed(2)})`,
  );
  const admin = new Admin(system);
  const [fleet] = await provisionFleet(system, { numbers: 3, name: 'Chaos live', area: '628', balanceCents });
  await sleep(1000); // number.provisioned reaches calls-media's directory
  const witness = await witnessLivePublishes(system, fleet.account.id);
  const stream = watchLiveCalls(system, fleet.key.key);
  let streamStats;
  // How many calls are in play (kept, not ended) when a fault begins.
  const counted = (fault) => ({
    ...fault,
    run: async () => {
      const inPlay = await system.sql('calls-media', 'SELECT count(*) AS n FROM simulated_live_calls').then(
        ([{ n }]) => Number(n),
        () => null,
      );
      return { calls_in_play: inPlay, ...(await fault.run()) };
    },
  });
  const killCallsMediaAt = spread + 0.5;
  try {
    await Promise.race([stream.open, sleep(10_000)]);
    const traffic = await callsUnderFaults(system, {
      numbers: fleet.numbers,
      rate: calls / spread,
      durationS: spread,
      body: (i) => {
        const call = plan[i % plan.length];
        return {
          duration_sec: call.duration_sec,
          outcome: 'order_placed',
          transcript: call.transcript,
          live: { turn_interval_ms: call.turn_interval_ms },
        };
      },
      faults: [
        // Right after the last call started: most calls are mid-play.
        counted({ at: killCallsMediaAt, ...killAndRestart(system, 'calls-media', 2000) }),
        // When calls-media, restarted, has taken its calls over (their leases run out 10-11 s after the kill) and
        // plays them again.
        counted({ at: killCallsMediaAt + 11.5, ...killAndRestart(system, 'gateway', 2000) }),
      ],
    });
    const accepted = [...traffic.accepted.keys()];
    const playsUntil = (sid) => {
      const { sent, index } = traffic.accepted.get(sid);
      return sent + plan[index % plan.length].plays_ms;
    };
    // Every call of the run ends: none left in progress, every accepted one listed.
    await system.waitReady(120_000);
    const settleStarted = Date.now();
    let listed;
    for (;;) {
      listed = await fleet.api.all('/calls');
      const ids = new Set(listed.map((c) => c.id));
      const open = listed.filter((c) => c.status === 'in_progress').length;
      const unlisted = accepted.filter((sid) => !ids.has(sid)).length;
      if ((open === 0 && unlisted === 0) || Date.now() - settleStarted > settleTimeout * 1000) break;
      await sleep(1000);
    }
    const settle_s = (Date.now() - settleStarted) / 1000;

    // Billing follows call.completed asynchronously: wait for every ended call's talk time, then for late repeats.
    const billingStarted = Date.now();
    let ledger;
    for (;;) {
      ledger = await admin.ledger(fleet.account.id);
      const billed = new Set(ledger.filter((e) => e.kind === 'talk_time').map((e) => e.reference));
      const unbilled = listed.filter((c) => c.status !== 'in_progress' && !billed.has(`talk_time:${c.id}`)).length;
      if (unbilled === 0 || Date.now() - billingStarted > billingTimeout * 1000) break;
      await sleep(1000);
    }
    const billing_s = (Date.now() - billingStarted) / 1000;
    await sleep(3000);
    ledger = await admin.ledger(fleet.account.id);
    listed = await fleet.api.all('/calls');

    // The stream: an `ended` whose publish was lost comes at the next heartbeat (15 s); give it that long.
    for (const until = Date.now() + 20_000; Date.now() < until; await sleep(500)) {
      const seen = stream.endedSeen();
      if (accepted.every((sid) => seen.has(sid))) break;
    }
    const endedAt = new Map();
    for (const e of stream.events)
      if (e.event === 'ended') endedAt.set(JSON.parse(e.data).call_id, endedAt.get(JSON.parse(e.data).call_id) ?? e.at);
    const endDelays = accepted.filter((sid) => endedAt.has(sid)).map((sid) => endedAt.get(sid) - playsUntil(sid));
    const endedSeen = stream.endedSeen();
    streamStats = await stream.stop();

    const result = liveAccounting({
      accepted,
      listed,
      ledger,
      expected: new Map(accepted.map((sid) => [sid, plan[traffic.accepted.get(sid).index % plan.length].duration_sec])),
      endedSeen,
    });
    const at_s = (at) => round((at - traffic.started) / 1000, 1);
    const [left] = await system.sql('calls-media', 'SELECT count(*) AS n FROM simulated_live_calls');
    // The account's live-event log against what the stream carried: an event logged but never streamed was skipped.
    const logged = await system.sql(
      'calls-media',
      // The SSE id is the account's `seq` (docs/live-calls.md).
      'SELECT e.seq::text AS id, e.call_id, e.type, e.at FROM live_call_events e WHERE e.account_id = $1 ORDER BY e.seq',
      [fleet.account.id],
    );
    const streamedIds = new Set(stream.events.filter((e) => e.id).map((e) => e.id));
    const skipped = logged.filter((e) => !streamedIds.has(e.id));
    const skippedDetail = skipped.slice(0, 20).map((e) => {
      // The stream's position when the skipped event was logged: the last id it had carried by then.
      const before = stream.events.filter((s) => s.id && s.at <= new Date(e.at).getTime()).at(-1);
      return {
        id: e.id,
        call_id: e.call_id,
        type: e.type,
        logged_at_s: at_s(new Date(e.at).getTime()),
        stream_had_id: before?.id ?? null,
        on_nats: witness.overtaken(e.id),
      };
    });
    // What is known of each call counted lost or twice: when it was sent, its plan, its row, its ledger rows, what
    // the stream saw of it.
    const traced = new Set([
      ...result.evidence.not_completed.map((c) => c.sid),
      ...result.evidence.not_billed,
      ...result.evidence.billed_twice,
      ...result.evidence.listed_twice,
      ...result.evidence.adjusted,
    ]);
    const trace = [...traced].slice(0, 20).map((sid) => {
      const sent = traffic.accepted.get(sid);
      return {
        sid,
        sent_at_s: sent ? round((sent.sent - traffic.started) / 1000, 1) : null,
        plan: sent ? plan[sent.index % plan.length] : null,
        listed: listed.filter((c) => c.id === sid).map((c) => ({ status: c.status, duration_sec: c.duration_sec })),
        ledger: ledger
          .filter((e) => e.reference.endsWith(sid))
          .map((e) => ({ id: e.id, kind: e.kind, amount_millicents: e.amount_millicents, created_at: e.created_at })),
        stream: stream.events
          .filter((e) => e.data.includes(sid))
          .map((e) => ({ event: e.event, id: e.id, at_s: round((e.at - traffic.started) / 1000, 1) })),
      };
    });
    // Each accepted call as the live stream saw it (seconds from the first call): when it was sent, how long it was
    // to play, when its start, each turn and its end came.
    const timeline = accepted.map((sid) => {
      const { sent, index } = traffic.accepted.get(sid);
      const seen = stream.events.filter((e) => e.event !== 'end' && JSON.parse(e.data).call_id === sid);
      const first = (type) => seen.find((e) => e.event === type);
      return {
        sid,
        sent_at_s: at_s(sent),
        plays_s: plan[index % plan.length].plays_ms / 1000,
        turns_planned: plan[index % plan.length].transcript.length,
        status_at_s: first('status') ? at_s(first('status').at) : null,
        turns_at_s: seen.filter((e) => e.event === 'turn').map((e) => at_s(e.at)),
        ended_at_s: first('ended') ? at_s(first('ended').at) : null,
      };
    });
    return {
      name: 'kill -9 calls-media, then the gateway, during live calls',
      calls_planned: calls,
      seed,
      spread_s: spread,
      talk_time_cents: talkTimeCents,
      balance_cents: balanceCents,
      sent: traffic.sent,
      refused: traffic.refused.length,
      refused_by_code: countBy(traffic.refused, (r) => `${r.status} ${r.code ?? ''}`.trim()),
      faults: traffic.events,
      settle_s: round(settle_s, 1),
      billing_s: round(billing_s, 1),
      left_in_play: Number(left.n),
      end_delay: summarize(endDelays),
      ...result,
      stream: {
        ...result.stream,
        ...streamStats,
        logged_events: logged.length,
        skipped_events: skipped.length,
        skipped_by_type: countBy(skipped, (e) => e.type),
        skipped_but_published: skipped.filter((e) => witness.overtaken(e.id).published).length,
        published: witness.published.length,
        published_out_of_order: witness.outOfOrder(),
      },
      evidence: { ...result.evidence, trace, stream_skipped: skippedDetail },
      timeline,
    };
  } finally {
    if (!streamStats) await stream.stop();
    await witness.stop();
  }
}
