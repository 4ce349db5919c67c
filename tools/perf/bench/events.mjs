// Events benchmark: provider call reports -> signed `call.completed` webhook deliveries per second to local HTTPS
// receivers, with 1,000 numbers receiving, then report-to-delivery latency with one call to each number at half that
// throughput; against two floors measured the same way in the same run (issue 19, ADR 0134,
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
import { callerNumber, pool } from '../lib/clients.mjs';
import { fmt, int, kit, machine, say, sleep, wallNow as now, writeResults } from '../lib/common.mjs';
import { cpuLine, measured, perRequestLine } from '../lib/cpu.mjs';
import { commandLine } from '../lib/options.mjs';
import { pauseProbe, pausesTable, pauseTimelines, readPauseProbes } from '../lib/pauses.mjs';
import { databaseUrl } from '../lib/postgres.mjs';
import { firstOutput } from '../lib/processes.mjs';
import { shuffle } from '../lib/random.mjs';
import { fleetWithReceiver } from '../lib/receiver.mjs';
import { round } from '../lib/stats.mjs';
import { SERVICES, startSystem } from '../lib/system.mjs';
import { makeCertificates } from '../../dev/tls.mjs';
import { connectionLine, countRefusal, eventsReport, eventsVerdicts, refusalLine, summarizeRun } from './report.mjs';

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
  const perAccount = 3;
  const concurrency = Number(system.envFor('webhook-dispatcher').WEBHOOK_CONCURRENCY || 32);
  results.dispatcher_concurrency = concurrency;

  // ---------------------------------------------------------------------------------------- 1,000 numbers
  say(
    `events: ${int(options.numbers)} numbers on ${Math.ceil(options.numbers / perAccount)} accounts, one receiver port per account`,
  );
  const started = performance.now();
  const { receiver, numbers, ports } = await fleetWithReceiver(system, tls, {
    numbers: options.numbers,
    perAccount,
    name: 'Events bench',
  });
  results.setup_s = round((performance.now() - started) / 1000, 1);
  say(`events: provisioned in ${results.setup_s} s`);
  const reports = reportInjector(`${system.adminUrl}/admin/provider/calls`, {
    authorization: `Bearer ${system.adminToken}`,
  });
  const labels = () => ({
    ...Object.fromEntries(SERVICES.map((app) => [system.pid(app), app])),
    [process.pid]: 'load generator',
    [receiver.pid]: 'receiver',
  });
  // A run's figures once every delivery arrived: one report to each target as fast as they are accepted (`burst`),
  // or at a steady rate (`paced`).
  const delivered = async (injected) =>
    summarizeRun(injected, await waitDelivered(receiver, injected.accepted, options['drain-timeout'] * 1000));
  const runs = {
    burst: async (to, targets) => delivered(await injectBurst(to, targets, options['inject-concurrency'])),
    paced: async (to, targets, rate) => delivered(await injectPaced(to, targets, rate)),
  };

  try {
    // Every number must be in calls-media's directory before it can take a call; a first call to each proves it
    // (and warms the path). Not measured.
    say('events: warm-up, one call to each number');
    await runs.burst(reports, numbers);

    // -------------------------------------------------------------------------------------- throughput
    say(`events: throughput, ${int(options.calls)} call reports as fast as they are accepted`);
    {
      const memory = system.sampleMemory(250);
      const order = Array.from({ length: options.calls }, (_, i) => numbers[i % numbers.length]);
      // Not repeated when disturbed (it would take another burst): the disturbance is reported instead.
      results.throughput = await measured({ run: () => runs.burst(reports, order), labels, system, attempts: 1 });
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
    const shuffled = shuffle([...numbers]);
    results.latency = await measured({ run: () => runs.paced(reports, shuffled, rate), labels, system, attempts: 1 });
    results.latency.rate = round(rate, 1);
    say(
      `events: report-to-delivery p50 ${fmt(results.latency.latency.p50_ms)} ms, p99 ${fmt(results.latency.latency.p99_ms)} ms`,
    );
    results.signature_failures = receiver.arrivals.filter((a) => a.valid === false).length;

    // -------------------------------------------------------------------------------------- the floors
    const floorOptions = { system, tls, numbers, ports, perAccount, concurrency, runs, labels, calls: options.calls };
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
  Object.assign(results, eventsVerdicts(results));
  results.finished_at = new Date().toISOString();
  return results;
}

/**
 * Sends call reports to `url` (POST, JSON) over kept connections and resolves to the 202's JSON; another answer
 * rejects with its `status` and `body`. The system's operator route and the floors' report servers are fed by the
 * same client, so the load generator costs each of them the same CPU (Node's fetch cost three times as much per
 * report as node:http, on the same two cores as the pipeline measured).
 */
export function reportInjector(url, headers = {}) {
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

/** What an injection sent: `send(number)` reports one call to it; `done()` the accepted SIDs and the refusals. */
function injection(reports) {
  const accepted = new Map(); // call_sid -> sent at
  const refusals = {};
  let refused = 0;
  const first = now();
  return {
    first,
    send(number) {
      const sent = now();
      return reports
        .injectCall({ to: number.phone_number, caller: callerNumber(), duration_sec: 42, outcome: 'order_placed' })
        .then(
          ({ call_sid }) => accepted.set(call_sid, sent),
          (error) => {
            refused += 1;
            countRefusal(refusals, error);
          },
        );
    },
    done: () => ({ accepted, refused, refusals, first, last: now() }),
  };
}

/** Reports one call per entry of `targets` with `concurrency` operator requests in flight. */
export async function injectBurst(reports, targets, concurrency) {
  const sent = injection(reports);
  await pool(targets, concurrency, sent.send);
  return sent.done();
}

/** Reports one call per entry at a steady `rate` per second (an open loop: the schedule does not wait for answers). */
async function injectPaced(reports, targets, rate) {
  const sent = injection(reports);
  const pending = [];
  for (let i = 0; i < targets.length; i += 1) {
    const wait = sent.first + (i * 1000) / rate - now();
    if (wait > 1) await sleep(wait);
    pending.push(sent.send(targets[i]));
  }
  await Promise.all(pending);
  return sent.done();
}

/**
 * Waits until every accepted call was handled by a receiver (a 2xx answer), or the timeout; then `lateMs` more for
 * late duplicates.
 */
export async function waitDelivered(receiver, accepted, timeoutMs, lateMs = 300) {
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
  await sleep(lateMs);
  unsubscribe();
  return { delivered, duplicates };
}

/** A floor's throughput (the same burst as the system's) and its latency at half that rate, with its CPU. */
async function measureFloor({ system, tls, numbers, ports, perAccount, concurrency, runs, labels, calls, hops }) {
  const floor = await startEventsFloor(system, tls, { numbers, ports, perAccount, concurrency, hops });
  const name = hops ? 'hops floor' : 'floor';
  try {
    // Warmed as the system is, one call to each number: every receiver port then has a kept connection.
    await runs.burst(floor, numbers);
    const order = Array.from({ length: calls }, (_, i) => numbers[i % numbers.length]);
    const floorLabels = () => ({ ...labels(), ...floor.labels });
    const throughput = await measured({
      run: () => runs.burst(floor, order),
      labels: floorLabels,
      system,
      attempts: 1,
    });
    const rate = Math.max(1, throughput.deliveries_per_second / 2);
    const latency = await measured({
      run: () => runs.paced(floor, shuffle([...numbers]), rate),
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
      const said = await firstOutput(child, `events floor (${role})`);
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
  if (probe && results) {
    // What held up each service (event-loop stalls over 5 ms, collections over 1 ms) during the slowest deliveries.
    const processes = pauseTimelines(readPauseProbes(probe.dir), pids);
    console.log('\nThe slowest deliveries at half rate and what held up each service meanwhile\n');
    console.log(pausesTable(processes, results.latency.slowest));
    rmSync(probe.dir, { recursive: true, force: true });
  }
}
