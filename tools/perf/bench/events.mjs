// Events benchmark: provider call reports -> signed `call.completed` webhook deliveries per second to local HTTPS
// receivers, with 1,000 numbers receiving, then report-to-delivery latency with one call to each number at half that
// throughput; against two floors measured the same way in the same run (issue 19, ADRs 0088 and 0109,
// tools/perf/floors/events-floor.mjs): the bare durable pipeline, and the same pipeline with Switchboard's hops (a
// gateway hop with its standing check, a billing consumer, a delivery log). The guard reads the second.
//
// The path measured: POST /admin/provider/calls (operator API) -> gateway -> NATS -> calls-media (report, call,
// outbox) -> JetStream CALLS -> webhook-dispatcher (delivery state, numbers-billing lookup of URL and secret over
// NATS, egress check, HMAC) -> HTTPS POST -> receiver (verifies the signature with libs/signing, answers 204).
//
// Run alone: node tools/perf/bench/events.mjs [--numbers 1000] [--calls 3000] [--no-build] [--pauses]
// (--pauses: each service runs with tools/perf/probes/pause-probe.cjs, and the slowest deliveries at half rate are
// lined up with what held up each service meanwhile.)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { callerNumber, provisionFleet } from '../lib/clients.mjs';
import { fmt, int, kit, machine, pct, say, sleep, table, writeResults } from '../lib/common.mjs';
import { cpuLine, measured, perRequestLine, transactionsLine } from '../lib/cpu.mjs';
import { eventsGuards, guardsTable } from '../lib/guards.mjs';
import { commandLine } from '../lib/options.mjs';
import { gcKindName, pauseProbe, readPauseProbes } from '../lib/pauses.mjs';
import { startReceiver } from '../lib/receiver.mjs';
import { round, summarize } from '../lib/stats.mjs';
import { databaseUrl, SERVICES, startSystem } from '../lib/system.mjs';
import { makeCertificates } from '../../dev/tls.mjs';

const now = () => performance.timeOrigin + performance.now();

export const EVENT_OPTIONS = {
  numbers: { type: 'number', default: 1000, min: 1, help: 'numbers receiving webhooks (3 per account)' },
  calls: { type: 'number', default: 3000, min: 1, help: 'call reports in the throughput burst' },
  'inject-concurrency': { type: 'number', default: 64, min: 1, help: 'reports in flight' },
  'drain-timeout': { type: 'number', default: 180, min: 1, help: 'seconds to wait for every delivery' },
};

/** Certificates for the receivers, and the environment the system needs to deliver to them. */
export function eventsSetup() {
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-tls-'));
  const tls = makeCertificates(dir);
  return {
    tls,
    env: {
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
      // The load generator is every caller in one address. The fault tests report calls through Node's fetch, which
      // keeps no bound on its connections: 64 injectors open about 100 (one finished request's connection is not
      // free yet when the next one starts), and past the gateway's cap per client (100) the rest were refused 429
      // (24-25 reports of 3,000 per burst; the benchmark's own client keeps 64). The floors' report servers have no
      // cap; like the rate limit (API_ENV), the cap is configuration.
      HTTP_MAX_CONNECTIONS_PER_CLIENT: '1000',
    },
    serviceEnv: { 'webhook-dispatcher': { NODE_EXTRA_CA_CERTS: tls.caFile } },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function eventsBenchmark(system, tls, options) {
  const results = {
    started_at: new Date().toISOString(),
    numbers: options.numbers,
    calls: options.calls,
    inject_concurrency: options['inject-concurrency'],
  };
  const reports = reportInjector(`${system.adminUrl}/admin/provider/calls`, {
    authorization: `Bearer ${system.adminToken}`,
  });
  const perAccount = 3;
  const accounts = Math.ceil(options.numbers / perAccount);
  const concurrency = Number(system.envFor('webhook-dispatcher').WEBHOOK_CONCURRENCY || 32);
  results.dispatcher_concurrency = concurrency;
  const receiver = await startReceiver({ tls, servers: Array.from({ length: accounts }, () => ({ mode: 'ok' })) });
  const { ports } = receiver;
  const labels = () => ({
    ...Object.fromEntries(SERVICES.map((app) => [system.pid(app), app])),
    [process.pid]: 'load generator',
    [receiver.pid]: 'receiver',
  });

  try {
    // -------------------------------------------------------------------------------------- 1,000 numbers
    say(`events: ${int(options.numbers)} numbers on ${accounts} accounts, one receiver port per account`);
    const started = performance.now();
    const fleet = await provisionFleet(system, {
      numbers: options.numbers,
      perAccount,
      name: 'Events bench',
      webhookUrl: (a) => `https://127.0.0.1:${ports[a]}/switchboard/${a}`,
    });
    const numbers = fleet.flatMap((f) => f.numbers);
    receiver.addSecrets(Object.fromEntries(numbers.map((n) => [n.id, n.webhook_secret])));
    results.setup_s = round((performance.now() - started) / 1000, 1);
    say(`events: provisioned in ${results.setup_s} s`);

    // Every number must be in calls-media's directory before it can take a call; a first call to each proves it
    // (and warms the path). Not measured.
    say('events: warm-up, one call to each number');
    const warm = await injectBurst(reports, numbers, { concurrency: options['inject-concurrency'] });
    await waitDelivered(receiver, warm.accepted, options['drain-timeout'] * 1000);

    // -------------------------------------------------------------------------------------- throughput
    say(`events: throughput, ${int(options.calls)} call reports as fast as they are accepted`);
    {
      const memory = system.sampleMemory(250);
      const order = Array.from({ length: options.calls }, (_, i) => numbers[i % numbers.length]);
      // Not repeated when disturbed (it would take another burst): the disturbance is reported instead.
      results.throughput = await measured({
        run: async () => {
          const burst = await injectBurst(reports, order, { concurrency: options['inject-concurrency'] });
          const drained = await waitDelivered(receiver, burst.accepted, options['drain-timeout'] * 1000);
          return summarizeRun(burst, drained);
        },
        labels,
        system,
        attempts: 1,
      });
      results.memory_under_event_load = memory.stop();
      say(
        `events: ${int(results.throughput.delivered)} of ${int(results.throughput.accepted)} delivered, ${int(results.throughput.deliveries_per_second)} deliveries/s ` +
          `(reports accepted at ${int(results.throughput.reports_per_second)}/s; ${cpuLine(results.throughput.cpu, 5)})`,
      );
      say(`events: connections of the deliveries: ${connectionLine(results.throughput.connections)}`);
      if (results.throughput.refused_reports > 0)
        say(
          `events: ${int(results.throughput.refused_reports)} reports refused: ${refusalLine(results.throughput.refusals)}`,
        );
    }

    // -------------------------------------------------------------------------------------- latency
    const rate = Math.max(1, results.throughput.deliveries_per_second / 2);
    say(
      `events: latency, one call to each of the ${int(numbers.length)} numbers at ${int(rate)} reports/s (half the throughput)`,
    );
    {
      const shuffled = shuffle([...numbers]);
      results.latency = await measured({
        run: async () => {
          const paced = await injectPaced(reports, shuffled, rate);
          const drained = await waitDelivered(receiver, paced.accepted, options['drain-timeout'] * 1000);
          return summarizeRun(paced, drained);
        },
        labels,
        system,
        attempts: 1,
      });
      results.latency.rate = round(rate, 1);
      say(
        `events: report-to-delivery p50 ${fmt(results.latency.latency.p50_ms)} ms, p99 ${fmt(results.latency.latency.p99_ms)} ms`,
      );
    }
    results.signature_failures = receiver.arrivals.filter((a) => a.valid === false).length;

    // -------------------------------------------------------------------------------------- the floors
    const floorOptions = { system, tls, numbers, ports, perAccount, concurrency, receiver, labels, options };
    say(`events: the floor (bare outbox, JetStream, pull consumer, HTTPS keep-alive), ${int(options.calls)} reports`);
    results.floor = await measureFloor({ ...floorOptions, hops: false });
    say(
      `events: the floor with Switchboard's hops (gateway hop and standing check, billing consumer, delivery log), ${int(options.calls)} reports`,
    );
    results.hops_floor = await measureFloor({ ...floorOptions, hops: true });
  } finally {
    reports.close();
    await receiver.stop();
  }

  const floorRate = results.floor.throughput.deliveries_per_second;
  const hopsRate = results.hops_floor.throughput.deliveries_per_second;
  const rate = results.throughput.deliveries_per_second;
  results.lost = results.throughput.lost + results.latency.lost;
  results.duplicates = results.throughput.duplicates + results.latency.duplicates;
  results.floor_verdict = {
    ratio: round(rate / floorRate, 3),
    system_per_second: rate,
    floor_per_second: floorRate,
    p99_ms_at_half_rate: results.latency.latency.p99_ms,
    floor_p99_ms_at_half_rate: results.floor.latency.latency.p99_ms,
  };
  // The guard's figure (ADR 0109): the floor with the hops is what the architecture's hops leave at best.
  results.hops_floor_verdict = {
    system_per_second: rate,
    hops_floor_per_second: hopsRate,
    of_floor: round(hopsRate / floorRate, 3),
    system_of_hops_floor: round(rate / hopsRate, 3),
  };
  results.finished_at = new Date().toISOString();
  return results;
}

/**
 * Sends call reports to `url` (POST, JSON) over kept connections and resolves to the 202's JSON; another answer
 * rejects with its `status` and `body`. The system's operator route and the floors' report servers are fed by the
 * same client, so the load generator costs each of them the same CPU (Node's fetch cost three times as much per
 * report as node:http, on the same two cores as the pipeline measured).
 */
function reportInjector(url, headers = {}) {
  const { hostname, port, pathname } = new URL(url);
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  return {
    injectCall: (report) =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify(report);
        const req = httpRequest(
          {
            host: hostname,
            port: Number(port),
            method: 'POST',
            path: pathname,
            agent,
            headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const chunks = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed = text;
              try {
                parsed = JSON.parse(text);
              } catch {
                // not JSON: kept as text for the refusal's reason
              }
              if (res.statusCode === 202) resolve(parsed);
              else reject(Object.assign(new Error(`${res.statusCode}`), { status: res.statusCode, body: parsed }));
            });
          },
        );
        req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/** Reports one call per entry of `targets` with `concurrency` operator requests in flight. */
async function injectBurst(reports, targets, { concurrency }) {
  const accepted = new Map(); // call_sid -> sent at
  let refused = 0;
  const refusals = {};
  const first = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, targets.length) }, async () => {
      while (next < targets.length) {
        const number = targets[next++];
        const sent = now();
        try {
          const { call_sid } = await reports.injectCall({
            to: number.phone_number,
            caller: callerNumber(),
            duration_sec: 42,
            outcome: 'order_placed',
          });
          accepted.set(call_sid, sent);
        } catch (error) {
          refused += 1;
          countRefusal(refusals, error);
        }
      }
    }),
  );
  return { accepted, refused, refusals, first, last: now() };
}

/** `503 service_unavailable: 12, 429 rate_limited: 3` */
function refusalLine(refusals = {}) {
  return Object.entries(refusals)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason}: ${int(n)}`)
    .join(', ');
}

/** Counts a refused report by its answer (`503 service_unavailable`), or by what failed when there was none. */
function countRefusal(refusals, error) {
  const reason = error?.status
    ? `${error.status} ${error.body?.error?.code ?? ''}`.trim()
    : String(error?.message ?? error);
  refusals[reason] = (refusals[reason] ?? 0) + 1;
}

/** Reports one call per entry at a steady `rate` per second (an open loop: the schedule does not wait for answers). */
async function injectPaced(reports, targets, rate) {
  const accepted = new Map();
  let refused = 0;
  const refusals = {};
  const first = now();
  const interval = 1000 / rate;
  const pending = [];
  for (let i = 0; i < targets.length; i += 1) {
    const due = first + i * interval;
    const wait = due - now();
    if (wait > 1) await sleep(wait);
    const sent = now();
    pending.push(
      reports
        .injectCall({ to: targets[i].phone_number, caller: callerNumber(), duration_sec: 42, outcome: 'order_placed' })
        .then(
          ({ call_sid }) => accepted.set(call_sid, sent),
          (error) => {
            refused += 1;
            countRefusal(refusals, error);
          },
        ),
    );
  }
  await Promise.all(pending);
  return { accepted, refused, refusals, first, last: now() };
}

/** Waits until every accepted call was handled by a receiver (a 2xx answer), or the timeout. */
async function waitDelivered(receiver, accepted, timeoutMs) {
  const delivered = new Map(); // call_sid -> first handled arrival
  const duplicates = new Map();
  const take = (arrival) => {
    if (!arrival.handled || !accepted.has(arrival.call_sid)) return;
    if (delivered.has(arrival.call_sid)) duplicates.set(arrival.call_sid, (duplicates.get(arrival.call_sid) ?? 1) + 1);
    else delivered.set(arrival.call_sid, arrival);
  };
  for (const arrival of receiver.arrivals) take(arrival);
  const unsubscribe = receiver.onArrival(take);
  const deadline = Date.now() + timeoutMs;
  while (delivered.size < accepted.size && Date.now() < deadline) await sleep(50);
  await sleep(300); // late duplicates
  unsubscribe();
  return { delivered, duplicates };
}

/**
 * The connections the deliveries came on, as the receivers saw them: kept (reused), resumed TLS sessions and full
 * handshakes. The floor keeps a connection per receiver; each new one costs both ends a handshake.
 */
function connectionsOf(sids, delivered) {
  const counts = { kept: 0, resumed: 0, full: 0 };
  for (const sid of sids) {
    const connection = delivered.get(sid)?.connection;
    if (connection in counts) counts[connection] += 1;
  }
  return counts;
}

/** `kept 0%, resumed 97%, full handshake 3%` */
function connectionLine({ kept, resumed, full }) {
  const total = Math.max(kept + resumed + full, 1);
  const share = (n) => `${Math.round((n / total) * 100)}%`;
  return `kept ${share(kept)}, resumed ${share(resumed)}, full handshake ${share(full)}`;
}

function summarizeRun(injection, { delivered, duplicates }) {
  const latencies = [];
  const timeline = [];
  let lastArrival = 0;
  for (const [sid, sent] of injection.accepted) {
    const arrival = delivered.get(sid);
    if (!arrival) continue;
    latencies.push(arrival.received - sent);
    timeline.push({
      at: sent,
      sent_s: round((sent - injection.first) / 1000, 3),
      ms: round(arrival.received - sent, 1),
    });
    lastArrival = Math.max(lastArrival, arrival.received);
  }
  const span = (lastArrival - injection.first) / 1000;
  return {
    accepted: injection.accepted.size,
    refused_reports: injection.refused,
    refusals: injection.refusals,
    delivered: delivered.size,
    requests: delivered.size,
    lost: injection.accepted.size - delivered.size,
    duplicates: [...duplicates.values()].reduce((sum, n) => sum + n - 1, 0),
    reports_per_second: round(injection.accepted.size / ((injection.last - injection.first) / 1000), 1),
    span_s: round(span, 2),
    deliveries_per_second: round(delivered.size / span, 1),
    latency: summarize(latencies),
    // The 1% slowest, with when each was sent: slow ones sent together point at a stall, spread ones at a step.
    slowest: timeline.sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(timeline.length / 100)),
    connections: connectionsOf(injection.accepted.keys(), delivered),
  };
}

/** A floor's throughput (the same burst as the system's) and its latency at half that rate, with its CPU. */
async function measureFloor({ system, tls, numbers, ports, perAccount, concurrency, receiver, labels, options, hops }) {
  const floor = await startEventsFloor(system, tls, { numbers, ports, perAccount, concurrency, hops });
  const name = hops ? 'hops floor' : 'floor';
  try {
    // Warmed as the system is, one call to each number: every receiver port then has a kept connection.
    const warm = await injectBurst(floor, numbers, { concurrency: options['inject-concurrency'] });
    await waitDelivered(receiver, warm.accepted, options['drain-timeout'] * 1000);
    const order = Array.from({ length: options.calls }, (_, i) => numbers[i % numbers.length]);
    const floorLabels = () => ({ ...labels(), ...floor.labels });
    const throughput = await measured({
      run: async () => {
        const burst = await injectBurst(floor, order, { concurrency: options['inject-concurrency'] });
        return summarizeRun(burst, await waitDelivered(receiver, burst.accepted, options['drain-timeout'] * 1000));
      },
      labels: floorLabels,
      system,
      attempts: 1,
    });
    const rate = Math.max(1, throughput.deliveries_per_second / 2);
    const latency = await measured({
      run: async () => {
        const paced = await injectPaced(floor, shuffle([...numbers]), rate);
        return summarizeRun(paced, await waitDelivered(receiver, paced.accepted, options['drain-timeout'] * 1000));
      },
      labels: floorLabels,
      system,
      attempts: 1,
    });
    latency.rate = round(rate, 1);
    say(
      `events: ${name} ${int(throughput.deliveries_per_second)} deliveries/s (lost ${throughput.lost}, duplicated ${throughput.duplicates}; ${perRequestLine(throughput, 8)}); at half rate p50 ${fmt(latency.latency.p50_ms)} ms, p99 ${fmt(latency.latency.p99_ms)} ms`,
    );
    say(`events: connections of the ${name}'s deliveries: ${connectionLine(throughput.connections)}`);
    return { throughput, latency };
  } finally {
    floor.stop();
  }
}

/** The roles of the floor with the hops (tools/perf/floors/events-floor.mjs), each in the database of the service it stands for. */
const HOPS_FLOOR_ROLES = {
  recorder: 'calls-media',
  biller: 'numbers-billing',
  dispatcher: 'webhook-dispatcher',
  door: '',
};

/**
 * The events floor (tools/perf/floors/events-floor.mjs: one process, or with `hops` one per role), told where each number's
 * webhooks go; `injectCall` feeds it.
 */
async function startEventsFloor(system, tls, { numbers, ports, perAccount, concurrency, hops }) {
  const dir = mkdtempSync(join(tmpdir(), 'sb-events-floor-'));
  const targetsFile = join(dir, 'targets.json');
  writeFileSync(
    targetsFile,
    JSON.stringify(
      Object.fromEntries(
        numbers.map((n, index) => [
          n.phone_number,
          {
            number_id: n.id,
            account: Math.floor(index / perAccount),
            secret: n.webhook_secret,
            port: ports[Math.floor(index / perAccount)],
            path: `/switchboard/${Math.floor(index / perAccount)}`,
          },
        ]),
      ),
    ),
  );
  const roles = hops ? HOPS_FLOOR_ROLES : { all: 'calls-media' };
  const children = [];
  const stop = () => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  let port;
  try {
    // The door last: it answers only once the others listen.
    for (const [role, app] of Object.entries(roles)) {
      const child = spawn(process.execPath, [join(kit, 'floors/events-floor.mjs')], {
        env: {
          ...process.env,
          FLOOR_ROLE: role,
          FLOOR_NAME: hops ? 'hopsfloor' : 'floor',
          NATS_URL: system.natsUrl,
          FLOOR_PREFIX: system.prefix,
          FLOOR_DATABASE_URL: app ? databaseUrl(system.databases[app]) : '',
          FLOOR_TARGETS_FILE: targetsFile,
          FLOOR_CA_FILE: tls.caFile,
          FLOOR_CONCURRENCY: String(concurrency),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(Object.assign(child, { role }));
      const said = await new Promise((resolve, reject) => {
        child.stdout.once('data', (data) => resolve(String(data).trim()));
        child.once('exit', (code) => reject(new Error(`events floor (${role}) exited (${code})`)));
      });
      if (role === 'door' || role === 'all') port = Number(said);
    }
  } catch (error) {
    stop();
    throw error;
  }
  const injector = reportInjector(`http://127.0.0.1:${port}/report`);
  return {
    labels: Object.fromEntries(
      children.map((child) => [child.pid, hops ? `hops floor ${child.role}` : 'events floor']),
    ),
    injectCall: injector.injectCall,
    stop: () => {
      injector.close();
      stop();
    },
  };
}

function shuffle(list) {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

// ------------------------------------------------------------------------------------------------ report
const disturbed = (m) => (m.disturbed ? `yes (${m.foreign_cpu_percent}%)` : '');

export function eventsReport(r) {
  const row = (label, t, l) => [
    label,
    int(t.deliveries_per_second),
    `${int(t.delivered + l.delivered)}/${int(t.accepted + l.accepted)}`,
    t.lost + l.lost,
    t.duplicates + l.duplicates,
    int(l.rate),
    fmt(l.latency.p50_ms),
    fmt(l.latency.p99_ms),
    perRequestLine(t, 8),
    transactionsLine(t),
    disturbed(t) || disturbed(l),
  ];
  const v = r.hops_floor_verdict;
  return [
    `Events: ${int(r.numbers)} numbers (3 per account, one HTTPS receiver port per account), ${int(r.calls)} calls ` +
      `in the burst, then one call to each number at half the burst's rate; dispatcher concurrency ${r.dispatcher_concurrency}`,
    '',
    table(
      [
        '',
        'deliveries/s',
        'delivered',
        'lost',
        'duplicated',
        'half rate /s',
        'p50 ms at half rate',
        'p99 ms at half rate',
        'CPU ms per delivery (burst)',
        'DB transactions per delivery',
        'disturbed',
      ],
      [
        row('Switchboard', r.throughput, r.latency),
        row("floor with Switchboard's hops", r.hops_floor.throughput, r.hops_floor.latency),
        row('floor (bare outbox, JetStream, pull consumer, HTTPS keep-alive)', r.floor.throughput, r.floor.latency),
      ],
    ),
    '',
    `Switchboard at ${pct(v.system_of_hops_floor)} of the floor with its hops and ${pct(r.floor_verdict.ratio)} of the ` +
      `bare floor; the floor with the hops at ${pct(v.of_floor)} of the bare floor. Reports accepted at ` +
      `${int(r.throughput.reports_per_second)}/s in the burst; connections of the deliveries: ${connectionLine(r.throughput.connections)}; ` +
      `signature failures: ${r.signature_failures}`,
    '',
    guardsTable(eventsGuards(r)),
  ].join('\n');
}

/**
 * `--pauses`: what held up each service (tools/perf/probes/pause-probe.cjs: event-loop stalls over 5 ms, garbage collections over
 * 1 ms) while each of the slowest deliveries at half rate was on its way.
 */
function pausesReport(probeDir, pids, slowest) {
  const probes = readPauseProbes(probeDir).filter((p) => pids[p.pid]);
  rmSync(probeDir, { recursive: true, force: true });
  const rows = slowest.map((d) => {
    const from = d.at;
    const to = d.at + d.ms;
    const held = [];
    for (const p of probes) {
      const overlaps = (e) => e.at + e.ms >= from && e.at <= to;
      const stalls = p.stalls.filter(overlaps);
      const gcs = p.gc.filter((g) => g.ms > 1 && overlaps(g));
      if (stalls.length || gcs.length)
        held.push(
          `${pids[p.pid]}: ${[
            ...stalls.map((x) => `stall ${fmt(x.ms, 0)} ms at +${fmt(x.at - from, 0)}`),
            ...gcs.map((g) => `${gcKindName(g.kind)} collection ${fmt(g.ms, 1)} ms at +${fmt(g.at - from, 0)}`),
          ].join(', ')}`,
        );
    }
    return [fmt(d.sent_s, 3), fmt(d.ms, 1), held.join('; ') || '-'];
  });
  return `The slowest deliveries at half rate and what held up each service meanwhile\n\n${table(
    ['sent at s', 'ms', 'stalls and collections during it'],
    rows,
  )}`;
}

// ------------------------------------------------------------------------------------------------ alone
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = commandLine('node tools/perf/bench/events.mjs', {
    ...EVENT_OPTIONS,
    'no-build': { type: 'boolean', default: false, help: 'run the apps as built' },
    pauses: { type: 'boolean', default: false, help: 'line the slowest deliveries up with GC pauses and stalls' },
  });
  const setup = eventsSetup();
  const probe = options.pauses ? pauseProbe() : undefined;
  const system = await startSystem({
    name: 'benchevents',
    env: { ...setup.env, ...probe?.env },
    serviceEnv: setup.serviceEnv,
    nodeArgs: probe?.nodeArgs ?? [],
    build: !options['no-build'],
  });
  const pids = Object.fromEntries(SERVICES.map((app) => [system.pid(app), app]));
  let results;
  try {
    results = await eventsBenchmark(system, setup.tls, options);
    console.log(`\n${eventsReport(results)}`);
    console.log(`\nresults: ${writeResults('events', { benchmark: 'events', machine: machine(), ...results })}`);
  } finally {
    await system.stop();
    setup.cleanup();
  }
  if (probe && results) console.log(`\n${pausesReport(probe.dir, pids, results.latency.slowest)}`);
}
