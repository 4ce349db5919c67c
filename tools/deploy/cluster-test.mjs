#!/usr/bin/env node
// `npm run deploy:test`: the whole system on a container cluster (deploy/compose/compose.cluster.yaml), proven by
// running it (issue 46, ADR 0137). In order:
//   images     the five service images (the images command, ADR 0137) and `:next` of numbers-billing and lostfound
//              (the tree plus one expand-only migration each, next-build.mjs)
//   up         three NATS nodes, PostgreSQL, the migration jobs, two replicas of every service, Prometheus, the
//              OTLP receiver; every replica ready, every stream at three replicas, every replica scraped
//   faults     under steady load (simulated calls with signed webhooks to this run's receiver, provisions,
//              lost-and-found flows): one NATS node stopped and started; one replica of every service killed
//              (SIGKILL; the engine restarts it); PostgreSQL restarted; a replica held down until Prometheus fires
//              its alert. After each, the system must be ready again by itself.
//   upgrade    numbers-billing, then lostfound, to `:next` one replica at a time (its migration job first), load on
//   rollback   both back to the current build the same way, load on
//   accounting every call recorded and billed once, delivered at least once with one event id; ledgers sum;
//              numbers charged once; lost-and-found flows read back; no 5xx but 503 with Retry-After; one trace per
//              call across every hop, read back from the receiver
// then tears everything down (unless --keep) and ends with one line:
//   cluster: <n> calls, <m> deliveries, lost 0, duplicated 0, upgrade ok, rollback ok
// and exits non-zero when anything failed. The details go to the results file it names.
//
// node tools/deploy/cluster-test.mjs [--source <git ref>] [--keep] [--calls-per-second 2] [--steady 30]
//   --source   build the images from that commit (a git worktree in a temporary directory) instead of the checkout
//              as it is; use it when the working tree holds changes not meant for the images
//   --keep     leave the cluster running at the end (docker-compose ... down -v to remove it; deploy/README.md)
//   --up       only build what is missing and bring the cluster up, ready; leave it running (with --state-dir)
//   --no-build use the images present (switchboard/<app>:local, and :next of the upgraded ones) as they are
//   --no-upgrade  faults only (no :next build, no upgrade or rollback): a shorter run that cannot pass
// Needs root (the engine), docker.io, buildah, debootstrap, docker-compose and openssl; it installs those that are
// absent with apt-get. Uses only 127.0.0.1 ports 13000-19090 (compose.cluster.yaml).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { account, waitForDeliveries } from './cluster/accounting.mjs';
import {
  ADMIN_URLS,
  APPS,
  compose,
  containerOf,
  docker,
  imageOf,
  INFRASTRUCTURE,
  inspect,
  logsOf,
  portsTaken,
  prepareState,
  PUBLIC_URLS,
  REPLICAS,
  ROOT,
  say,
  streamReplicas,
  tagVariable,
  waitNatsHealthy,
  waitReady,
  writeEnv,
} from './cluster/cluster.mjs';
import { AnswerLog, ClusterClient } from './cluster/client.mjs';
import { Load } from './cluster/load.mjs';
import { buildNextImages, EXPAND_CHANGES, nextBuildContext } from './cluster/next-build.mjs';
import { AlertWatch, judgeTraces, query, scrapeTargets } from './cluster/observability.mjs';
import { startWebhookReceiver } from './cluster/webhook-receiver.mjs';
import { ensureTools } from './images-host.mjs';

const { values: options } = parseArgs({
  options: {
    source: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'calls-per-second': { type: 'string', default: '2' },
    steady: { type: 'string', default: '30' },
    'state-dir': { type: 'string' },
    up: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'no-upgrade': { type: 'boolean', default: false },
  },
});
const steadyMs = Number(options.steady) * 1000;
/**
 * The services export spans in batches, every 5 s (OpenTelemetry's BatchSpanProcessor): a process killed with
 * SIGKILL loses the batch it held. Calls made this long before the kills are counted, not required to be whole
 * traces (the 5 s, and 3 s for a call's later hops).
 */
const SPAN_BATCH_WINDOW_MS = 8_000;
const started = Date.now();
const phases = [];
const results = { started_at: new Date().toISOString(), options, phases, checks: {} };
const failures = [];

/** Runs one phase, timing it; a thrown error fails the run (and stops it: later phases need this one). */
async function phase(name, work) {
  const t0 = Date.now();
  say(`-- ${name}`);
  try {
    const detail = await work();
    phases.push({ name, seconds: Math.round((Date.now() - t0) / 100) / 10, ...(detail ?? {}) });
    say(`-- ${name}: done in ${Math.round((Date.now() - t0) / 1000)} s`);
    return detail;
  } catch (error) {
    phases.push({ name, seconds: Math.round((Date.now() - t0) / 100) / 10, error: String(error.stack ?? error) });
    throw error;
  }
}

function fail(message) {
  failures.push(message);
  say(`FAILED: ${message}`);
}

// ------------------------------------------------------------------------------------------------------ images
let sourceDir = ROOT;
let worktree;
function prepareSource() {
  if (!options.source) return;
  worktree = mkdtempSync(join(tmpdir(), 'sbcluster-src-'));
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', worktree, options.source], { stdio: 'ignore' });
  sourceDir = worktree;
  say(
    `building from ${options.source} (${execFileSync('git', ['-C', worktree, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}) in ${worktree}`,
  );
}

/** The images command of ADR 0137, from the source being built: the base images, then the five services. */
function buildImages() {
  const command = join(sourceDir, 'tools', 'deploy', 'images.mjs');
  if (!existsSync(command))
    throw new Error(`${command} is missing: the images command (ADR 0137) builds the service images`);
  // Its output goes to stderr: this run's stdout is its one result line.
  const result = spawnSync(process.execPath, [command], { cwd: sourceDir, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`the images command exited with ${result.status}`);
}

// ------------------------------------------------------------------------------------------------------ faults
function mainPid(service) {
  return Number(inspect(service, '{{.State.Pid}}'));
}

/** SIGKILL the container's main process from the host: to the engine it crashed, so its restart policy applies. */
function crash(service) {
  const pid = mainPid(service);
  if (!pid) throw new Error(`${service} is not running`);
  process.kill(pid, 'SIGKILL');
  return pid;
}

async function streamsAtThreeReplicas({ timeoutMs = 120_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let streams = [];
  while (Date.now() < deadline) {
    streams = await streamReplicas().catch(() => []);
    if (streams.length > 0 && streams.every((s) => s.replicas === 3 && s.current === 3)) return streams;
    await sleep(2000);
  }
  throw new Error(`streams not at three current replicas: ${JSON.stringify(streams)}`);
}

// ------------------------------------------------------------------------------------------------------ the run
const stateDir = options['state-dir'] ?? mkdtempSync(join(tmpdir(), 'sbcluster-'));
mkdirSync(stateDir, { recursive: true });
const resultsFile = join(stateDir, 'results.json');
let state;
let receiver;
let client;
let load;
const alerts = new AlertWatch();
const log = new AnswerLog();
// Stopped from outside (CI's time-out, Ctrl-C): the cluster goes down all the same, and the line says it failed.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    say(`${signal}: tearing the cluster down`);
    if (state && !options.keep) {
      try {
        compose(state, ['down', '-v', '--remove-orphans'], { quiet: true });
      } catch (error) {
        say(String(error.message));
      }
    }
    if (worktree) spawnSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', worktree], { stdio: 'ignore' });
    console.log(`cluster: ${load?.accepted.size ?? 0} calls, stopped by ${signal}, upgrade failed, rollback failed`);
    process.exit(1);
  });
}

let upgradeOk = false;
let rollbackOk = false;
let summary;

try {
  await phase('images', async () => {
    // The engine, the builder and debootstrap (the images command's), and what the cluster run itself uses.
    ensureTools({ 'docker-compose': 'docker-compose', openssl: 'openssl' });
    if (options['no-build']) {
      const upgraded = options['no-upgrade'] ? [] : Object.keys(EXPAND_CHANGES);
      const wanted = [
        ...APPS.map((app) => `switchboard/${app}:local`),
        ...upgraded.map((app) => `switchboard/${app}:next`),
      ];
      const missing = wanted.filter((image) => !docker(['images', '-q', image]));
      if (missing.length > 0) throw new Error(`--no-build, but these images are missing: ${missing.join(', ')}`);
      return { skipped: true };
    }
    prepareSource();
    const t0 = Date.now();
    buildImages();
    const servicesSeconds = Math.round((Date.now() - t0) / 1000);
    if (options['no-upgrade']) return { services_s: servicesSeconds };
    const context = nextBuildContext(sourceDir, 'HEAD');
    try {
      buildNextImages(sourceDir, context.dir);
    } finally {
      context.cleanup();
    }
    return { services_s: servicesSeconds, next_s: Math.round((Date.now() - t0) / 1000) - servicesSeconds };
  });

  await phase('up', async () => {
    state = prepareState(stateDir, {
      // Retries in seconds, not minutes, so a fault's deliveries settle within the run.
      WEBHOOK_BACKOFF_BASE_MS: '1000',
      WEBHOOK_BACKOFF_MAX_MS: '5000',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
      // One key drives a whole account's load and its accounting: the per-key limit is configuration.
      RATE_LIMIT_REQUESTS: '1000000',
      ...Object.fromEntries(REPLICAS.map((r) => [tagVariable(r.name), 'local'])),
    });
    compose(state, ['down', '-v', '--remove-orphans'], { quiet: true });
    const taken = await portsTaken();
    if (taken.length > 0) throw new Error(`ports the cluster listens on are taken: ${taken.join('; ')}`);
    compose(state, ['up', '-d', '--no-build']);
    const nats_s = await waitNatsHealthy();
    const ready_s = await waitReady(state, { timeoutMs: 600_000 });
    const streams = await streamsAtThreeReplicas();
    let targets = [];
    for (let i = 0; i < 30; i += 1) {
      targets = await scrapeTargets().catch(() => []);
      if (targets.length >= REPLICAS.length && targets.every((t) => t.health === 'up')) break;
      await sleep(2000);
    }
    const down = targets.filter((t) => t.health !== 'up');
    if (targets.length < REPLICAS.length || down.length > 0)
      fail(`Prometheus does not scrape every replica: ${JSON.stringify(targets)}`);
    return {
      nats_healthy_s: nats_s,
      ready_s,
      streams: streams.map((s) => `${s.name} R${s.replicas}`),
      scrape_targets: targets.length,
    };
  });

  if (options.up) {
    say(`up and ready; env file ${state.envFile}`);
    process.exit(0);
  }
  receiver = await startWebhookReceiver({ tlsDir: state.tls });
  client = new ClusterClient({
    ca: state.ca,
    publicUrls: PUBLIC_URLS,
    adminUrls: ADMIN_URLS,
    adminToken: state.values.ADMIN_TOKEN,
    log,
  });
  load = new Load({ client, receiver, log, callsPerSecond: Number(options['calls-per-second']) });
  await phase('seed', async () => {
    // The operator CLI, unchanged, against one gateway of the cluster (docs/operations.md, "The cluster").
    const cli = spawnSync(
      process.execPath,
      [join(ROOT, 'tools', 'admin', 'cli.mjs'), 'accounts', 'create', '--name', 'Operator CLI', '--balance', '500'],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          ADMIN_URL: ADMIN_URLS[0],
          ADMIN_TOKEN: state.values.ADMIN_TOKEN,
          NODE_EXTRA_CA_CERTS: join(state.tls, 'ca.pem'),
        },
      },
    );
    const made = cli.status === 0 ? JSON.parse(cli.stdout) : undefined;
    if (!made?.id?.startsWith('acct_'))
      fail(`npm run admin against the cluster: exit ${cli.status}: ${cli.stdout}${cli.stderr}`);
    await load.seed();
    return { operator_cli: made?.id, accounts: load.accounts.length, numbers: load.numbers.length };
  });
  alerts.start();
  load.start();

  const setPhase = (name) => {
    log.phase = name;
    alerts.fault = name;
  };
  const steady = async (name, ms) => {
    setPhase(name);
    await sleep(ms);
  };

  await phase('faults', async () => {
    // Kept on the results as they happen, so a run that stops half-way still says which faults it got through.
    const faults = (results.faults = []);
    await steady('steady', steadyMs);

    setPhase('nats-node-down');
    let t0 = Date.now();
    docker(['stop', '-t', '10', containerOf('nats-2')]);
    await sleep(30_000);
    docker(['start', containerOf('nats-2')]);
    await waitNatsHealthy();
    await streamsAtThreeReplicas();
    await waitReady(state, { label: 'ready after the NATS node came back' });
    faults.push({ fault: 'stop nats-2 for 30 s, start it', back_to_ready_s: (Date.now() - t0) / 1000 });
    await steady('after-nats', 15_000 - SPAN_BATCH_WINDOW_MS);
    // Spans of the calls made now may still be in a process's export batch when the kills below come.
    await steady('before-kill', SPAN_BATCH_WINDOW_MS);

    setPhase('replica-kill');
    t0 = Date.now();
    const killed = [];
    for (const app of APPS) {
      killed.push({ replica: `${app}-1`, pid: crash(`${app}-1`) });
      await sleep(3000);
    }
    const readyAfterKill = await waitReady(state, { label: 'ready after the kills (restarted by the engine)' });
    const restarts = Object.fromEntries(
      APPS.map((app) => [`${app}-1`, Number(inspect(`${app}-1`, '{{.RestartCount}}'))]),
    );
    if (Object.values(restarts).some((n) => n < 1))
      fail(`a killed replica was not restarted by the engine: ${JSON.stringify(restarts)}`);
    faults.push({
      fault: 'SIGKILL replica 1 of every service',
      killed,
      restarts,
      back_to_ready_s: (Date.now() - t0) / 1000,
      ready_after_last_kill_s: readyAfterKill,
    });
    await steady('after-kill', 15_000);

    setPhase('postgres-restart');
    t0 = Date.now();
    docker(['restart', '-t', '10', containerOf('postgres')]);
    await waitReady(state, { label: 'ready after the PostgreSQL restart' });
    faults.push({ fault: 'restart PostgreSQL', back_to_ready_s: (Date.now() - t0) / 1000 });
    await steady('after-postgres', 15_000);

    // A replica that stays down: Prometheus must say so (deploy/prometheus's rule for a target down).
    setPhase('replica-down-alert');
    t0 = Date.now();
    docker(['stop', '-t', '20', containerOf('webhook-dispatcher-2')]);
    const fired = await alerts.waitFor(
      (a) => a.alert === 'ReplicaDown' && a.labels.instance === '127.0.0.1:13051',
      300_000,
    );
    docker(['start', containerOf('webhook-dispatcher-2')]);
    if (!fired) fail('ReplicaDown did not fire for webhook-dispatcher-2 (127.0.0.1:13051) within 300 s');
    await waitReady(state, { label: 'ready after webhook-dispatcher-2 came back' });
    faults.push({
      fault: 'webhook-dispatcher-2 held down until an alert fired',
      alert: fired,
      back_to_ready_s: (Date.now() - t0) / 1000,
    });
    await steady('settle', 20_000);
    return { faults };
  });

  /** Rolls `app`'s two replicas to `tag` one at a time; between them, old and new serve side by side. */
  async function roll(app, tag, { migrate }) {
    const steps = [];
    if (migrate) {
      // The release's migration job first, from the new image: expand-only, so the old replicas keep working.
      state.values[tagVariable(`${app}-1`)] = tag;
      writeEnv(state.envFile, state.values);
      const t0 = Date.now();
      compose(state, ['run', '--rm', '--no-deps', `${app}-migrate`], { quiet: true });
      steps.push({ step: `${app}-migrate (${tag})`, seconds: (Date.now() - t0) / 1000 });
    }
    for (const n of [1, 2]) {
      const replica = `${app}-${n}`;
      state.values[tagVariable(replica)] = tag;
      writeEnv(state.envFile, state.values);
      const t0 = Date.now();
      compose(state, ['up', '-d', '--no-deps', replica], { quiet: true });
      await waitReady(state, { label: `${replica} on ${tag}` });
      const images = { [`${app}-1`]: imageOf(`${app}-1`), [`${app}-2`]: imageOf(`${app}-2`) };
      steps.push({ step: `${replica} -> ${tag}`, ready_s: (Date.now() - t0) / 1000, images });
      if (n === 1) {
        // Side by side: one replica on each build, both ready, under load, for a while.
        if (images[`${app}-1`] === images[`${app}-2`]) fail(`${app}: both replicas on one image during the roll`);
        await sleep(20_000);
        const ready = await waitReady(state, { names: [`${app}-1`, `${app}-2`], timeoutMs: 5000 }).then(
          () => true,
          () => false,
        );
        if (!ready) fail(`${app}: old and new replicas were not both ready side by side`);
        steps.push({ step: 'side by side 20 s', both_ready: ready });
      }
    }
    return steps;
  }

  const phaseClean = (names) => {
    const violations = log.violations.filter((v) => names.includes(v.phase));
    const unexpected = log.unexpected.filter((u) => names.includes(u.phase));
    return { violations, unexpected, ok: violations.length === 0 && unexpected.length === 0 };
  };

  if (!options['no-upgrade'])
    await phase('upgrade', async () => {
      setPhase('upgrade');
      const steps = [];
      for (const app of Object.keys(EXPAND_CHANGES)) steps.push(...(await roll(app, 'next', { migrate: true })));
      await steady('after-upgrade', 15_000);
      return { steps };
    });
  if (!options['no-upgrade'])
    await phase('rollback', async () => {
      setPhase('rollback');
      const steps = [];
      for (const app of Object.keys(EXPAND_CHANGES)) steps.push(...(await roll(app, 'local', { migrate: false })));
      await steady('after-rollback', 15_000);
      return { steps };
    });

  await phase('drain', async () => {
    setPhase('drain');
    await load.stop();
    const delivered = await waitForDeliveries(load, receiver, 180_000);
    return { ...delivered };
  });

  summary = await phase('accounting', async () => {
    const counted = await account(client, load, receiver);
    const multiEventIds = counted.problems.filter((p) => p.kind === 'delivered with more than one event id').length;
    counted.duplicated += multiEventIds;
    for (const problem of counted.problems.slice(0, 20)) say(`problem: ${JSON.stringify(problem)}`);
    if (counted.lost !== 0) fail(`${counted.lost} lost`);
    if (counted.duplicated !== 0) fail(`${counted.duplicated} duplicated`);
    if (counted.problems.length > 0) fail(`${counted.problems.length} accounting problems (first ones above)`);
    if (counted.receiver.invalid > 0) fail(`${counted.receiver.invalid} webhook deliveries failed verification`);
    if (log.violations.length > 0)
      fail(
        `${log.violations.length} answers broke the rule (5xx other than 503 with Retry-After): ${JSON.stringify(log.violations.slice(0, 5))}`,
      );
    if (log.unexpected.length > 0)
      fail(`${log.unexpected.length} non-retryable errors: ${JSON.stringify(log.unexpected.slice(0, 5))}`);
    upgradeOk = phaseClean(['upgrade', 'after-upgrade']).ok && counted.lost === 0 && counted.duplicated === 0;
    rollbackOk = phaseClean(['rollback', 'after-rollback']).ok && counted.lost === 0 && counted.duplicated === 0;
    return { ...counted, problems: counted.problems.slice(0, 200), answers: log.byPhase };
  });

  await phase('traces', async () => {
    // Calls made while nothing was being broken must each be one whole trace; during faults (and in the span batch
    // window before the kills, 'before-kill') a killed process may lose the spans it had not exported yet, so those
    // are counted, not required.
    const calls = [...load.accepted].map(([sid, c]) => ({
      sid,
      traceId: c.traceId,
      phase: c.phase,
      receiverTraceparents: receiver.calls.get(sid)?.traceparents ?? new Set(),
    }));
    const quiet = new Set([
      'steady',
      'after-nats',
      'after-kill',
      'after-postgres',
      'settle',
      'after-upgrade',
      'after-rollback',
    ]);
    const judged = await judgeTraces(calls);
    const required = judged.filter((j) => quiet.has(j.phase));
    const broken = required.filter((j) => !j.ok);
    if (required.length === 0) fail('no call made outside a fault to check the traces of');
    if (broken.length > 0)
      fail(
        `${broken.length} of ${required.length} calls outside faults lack one whole trace: ${JSON.stringify(broken.slice(0, 3))}`,
      );
    const spans = judged.map((j) => j.spans).sort((a, b) => a - b);
    return {
      calls_checked: judged.length,
      whole_traces: judged.filter((j) => j.ok).length,
      required: required.length,
      required_whole: required.length - broken.length,
      spans_per_trace_median: spans[Math.floor(spans.length / 2)],
      services: [...new Set(judged.flatMap((j) => j.services))].sort(),
    };
  });

  results.alerts = [...alerts.seen.values()];
  results.side_by_side_outbox = await query('sum by (instance) (outbox_publish_lag_seconds_count)').catch((e) =>
    String(e),
  );
} catch (error) {
  fail(String(error.stack ?? error));
  for (const r of REPLICAS) {
    try {
      say(`--- ${r.name} (${imageOf(r.name)}), last lines:\n${logsOf(r.name, 25)}`);
    } catch {
      // Not even a container: nothing to show.
    }
  }
  for (const name of INFRASTRUCTURE) say(`--- ${name}, last lines:\n${logsOf(name, 15)}`);
} finally {
  await load?.stop().catch(() => undefined);
  await alerts.stop().catch(() => undefined);
  await receiver?.stop().catch(() => undefined);
  client?.close();
  results.alerts ??= [...alerts.seen.values()];
  results.failures = failures;
  results.total_s = Math.round((Date.now() - started) / 1000);
  writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  say(`results: ${resultsFile}`);
  if (state && !options.keep) {
    await phase('down', async () => compose(state, ['down', '-v', '--remove-orphans'], { quiet: true })).catch((e) =>
      fail(String(e)),
    );
  } else if (state) {
    say(
      `left running (--keep): docker-compose -p sbcluster -f deploy/compose/compose.cluster.yaml --env-file ${state.envFile} down -v`,
    );
  }
  if (worktree) {
    spawnSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', worktree], { stdio: 'ignore' });
    rmSync(worktree, { recursive: true, force: true });
  }
  for (const p of phases) say(`phase ${p.name}: ${p.seconds} s${p.error ? ' (failed)' : ''}`);
}

const calls = summary?.calls ?? load?.accepted.size ?? 0;
const deliveries = summary?.deliveries ?? 0;
const lost = summary?.lost ?? 'unknown';
const duplicated = summary?.duplicated ?? 'unknown';
const ok = failures.length === 0 && upgradeOk && rollbackOk;
console.log(
  `cluster: ${calls} calls, ${deliveries} deliveries, lost ${lost}, duplicated ${duplicated}, upgrade ${upgradeOk ? 'ok' : 'failed'}, rollback ${rollbackOk ? 'ok' : 'failed'}`,
);
process.exit(ok ? 0 : 1);
