// The whole of Switchboard as real processes, for benchmarks and fault tests: one `node <@switchboard/app/bundle>`
// per service (apps/<app>/dist/main.bundle.js, what a release runs: ADR 0099), each with a throwaway PostgreSQL
// database (sb_bench_*), one NATS subject prefix for the run, free ports and a temporary DATA_DIR. Optionally a
// nats-server of its own (own port, own store dir), which fault tests may stop and start without touching the
// machine's shared NATS. `stop()` removes every trace: processes, databases, streams, temporary files; an
// interrupted run (Ctrl-C, crash) is cleaned up too.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../dev/free-port.mjs';
import { bundleServices, SERVICES } from '../../dev/service-bundles.mjs';
import { SERVICE_ENV } from '../../dev/service-env.mjs';
import { require, root, say, sleep } from './common.mjs';
import { createDatabase, databaseUrl, dropDatabase, onServer, staleBenchDatabases, withClient } from './postgres.mjs';
import { running, stopProcess } from './processes.mjs';

// The five services, in the order they start (the gateway last), as npm start knows them.
export { SERVICES };
export const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString('hex')}`;
const envName = (app) => `${app.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;

/** Everything started by this process, so an interruption can still remove it. */
const live = new Set();
let handlersInstalled = false;
function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    // Last resort (synchronous): no process of ours outlives the run.
    for (const system of live) system.killAllNow();
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.log(`\n${signal}: cleaning up`);
      Promise.allSettled([...live].map((system) => system.stop())).finally(() => process.exit(130));
    });
  }
}

// The benchmarks' and fault tests' free ports come from the same helper as npm start's.
export { databaseUrl, freePort };

function canConnect(port, host = '127.0.0.1') {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
    socket.once('timeout', () => (socket.destroy(), done(false)));
  });
}

/** Stale benchmark databases from interrupted runs older than an hour (only sb_bench_ names). */
async function dropStaleDatabases() {
  const { rows } = await onServer(`SELECT datname FROM pg_database WHERE datname LIKE 'sb\\_bench\\_%'`);
  for (const name of staleBenchDatabases(rows.map((row) => row.datname)))
    await dropDatabase(name).catch(() => undefined);
}

/** A nats-server of our own (JetStream, own store dir), which may be stopped and started again. */
class OwnNats {
  constructor(dir) {
    this.storeDir = join(dir, 'nats-store');
    this.logFile = join(dir, 'nats-server.log');
    this.process = undefined;
    this.port = undefined;
  }

  get url() {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start() {
    this.port ??= await freePort();
    const binary =
      ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'].find(existsSync) ?? 'nats-server';
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    this.process = child;
    for (let i = 0; i < 100; i += 1) {
      if (child.exitCode !== null)
        throw new Error(`nats-server exited at start (${child.exitCode}); see ${this.logFile}`);
      if (await canConnect(this.port)) return;
      await sleep(100);
    }
    throw new Error('nats-server did not listen within 10 s');
  }

  /** Stops the server (SIGTERM: a clean shutdown; SIGKILL: a crash) and waits for the process to end. */
  async stop(signal = 'SIGTERM') {
    if (this.process) await stopProcess(this.process, signal, 10_000);
  }

  killNow() {
    if (this.process && running(this.process)) this.process.kill('SIGKILL');
  }
}

/**
 * Starts the system. `env` applies to every service, `serviceEnv[app]` to one. Resolves when the gateway's
 * /readyz answers 200 (every service answers over NATS).
 */
export async function startSystem({
  name = 'bench',
  env = {},
  serviceEnv = {},
  nodeArgs = [],
  mains = {},
  ownNats = false,
  build = true,
  profileDir,
} = {}) {
  installHandlers();
  if (build) await buildApps();
  const run = `${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), `sb-${name}-`));
  const prefix = `${name.replace(/[^a-z0-9]/gi, '').slice(0, 12)}${randomBytes(4).toString('hex')}`;
  const system = new System({ run, dir, prefix, env, serviceEnv, nodeArgs, mains, profileDir });
  live.add(system);
  try {
    await dropStaleDatabases().catch(() => undefined);
    if (ownNats) {
      system.nats = new OwnNats(dir);
      await system.nats.start();
    }
    await system.boot();
    return system;
  } catch (error) {
    system.printLogs();
    await system.stop();
    throw error;
  }
}

/**
 * Each service's compiled modules (`@switchboard/<app>`, dist/main.js) instead of its bundle, as `startSystem`'s
 * `mains`: the profilers attribute time and allocations to packages by file, and in a bundle every function is in one
 * file. The code that runs per request is the same.
 */
export function compiledMains() {
  return Object.fromEntries(SERVICES.map((app) => [app, require.resolve(`@switchboard/${app}`)]));
}

/** `tsc -b`, then each service's bundle where its inputs changed (tools/dev/service-bundles.mjs). */
export async function buildApps() {
  say('building (tsc -b tsconfig.build.json) ...');
  const tsc = (...args) => {
    const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
  };
  tsc('tsconfig.build.json');
  // tsc -b trusts its .tsbuildinfo: an output deleted behind its back is not emitted again. Check every app's
  // output is whole, and rebuild an app whose output is not.
  for (const app of SERVICES) {
    const missing = missingOutputs(join(root, 'apps', app));
    if (missing.length > 0) {
      say(
        `apps/${app}/dist is incomplete (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''}): rebuilding it`,
      );
      tsc(join('apps', app, 'tsconfig.build.json'), '--force');
      const still = missingOutputs(join(root, 'apps', app));
      if (still.length > 0)
        throw new Error(`apps/${app}/dist still misses ${still.slice(0, 3).join(', ')} after a forced build`);
    }
  }
  if (!(await bundleServices({ root, say }))) throw new Error('bundling the services failed');
}

function missingOutputs(appDir) {
  const missing = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(appDir, 'src', dir), { withFileTypes: true })) {
      const relative = join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (/(?<!\.d)\.ts$/.test(entry.name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name)) {
        const out = join(appDir, 'dist', relative.replace(/\.ts$/, '.js'));
        if (!existsSync(out)) missing.push(relative);
      }
    }
  };
  walk('');
  return missing;
}

class System {
  constructor({ run, dir, prefix, env, serviceEnv, nodeArgs, mains, profileDir }) {
    this.run = run;
    /** A service's entry point other than its bundle (its dist/main.js, or a patched copy, to measure a change). */
    this.mains = mains;
    /** Extra node flags for every service: a probe (--require) or the profiler (--cpu-prof, which NODE_OPTIONS refuses). */
    this.nodeArgs = nodeArgs;
    /** Where each service writes a V8 CPU profile when it exits (`<profileDir>/<app>/`), if set. */
    this.profileDir = profileDir;
    this.dir = dir;
    this.prefix = prefix;
    this.extraEnv = env;
    this.serviceEnv = serviceEnv;
    this.adminToken = ADMIN_TOKEN;
    this.databases = {};
    this.ports = {};
    this.children = new Map();
    this.nats = undefined;
    this.stopped = false;
  }

  get natsUrl() {
    return this.nats ? this.nats.url : (process.env.NATS_URL?.trim() || 'nats://127.0.0.1:4222').split(',')[0];
  }

  get publicUrl() {
    return `http://127.0.0.1:${this.ports.gateway}`;
  }

  get adminUrl() {
    return `http://127.0.0.1:${this.ports.admin}`;
  }

  async boot() {
    for (const app of SERVICES) {
      const db = `sb_bench_${this.run}_${app.replace(/-/g, '_')}`;
      await createDatabase(db);
      this.databases[app] = db;
    }
    this.ports.gateway = await freePort();
    this.ports.admin = await freePort();
    for (const app of SERVICES) this.ports[`health:${app}`] = await freePort();
    say(`system ${this.prefix}: databases sb_bench_${this.run}_*, NATS ${this.natsUrl}, logs in ${this.dir}`);
    // The migration step of a release first (deploy/k8s/jobs/<app>-migrate.yaml), then the services, which find
    // nothing to apply and do not load the schema engine (ADR 0098): they run as deployed services run.
    const { applyMigrations } = require('@switchboard/persistence');
    for (const app of SERVICES) {
      await applyMigrations({
        appName: app,
        migrationsDir: join(root, 'apps', app, 'prisma', 'migrations'),
        env: { [envName(app)]: databaseUrl(this.databases[app]) },
      });
    }
    for (const app of SERVICES) this.start(app);
    await this.waitReady(180_000);
  }

  envFor(app, extra = {}) {
    const env = {
      ...SERVICE_ENV,
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      NATS_URL: this.natsUrl,
      NATS_SUBJECT_PREFIX: this.prefix,
      ADMIN_TOKEN: this.adminToken,
      DATA_DIR: join(this.dir, 'data'),
      SECRETS_ENCRYPTION_KEY: (this.secretsKey ??= randomBytes(32).toString('base64')),
      BILLING_CYCLE_INTERVAL_MS: '0',
      HEALTH_PORT: String(this.ports[`health:${app}`]),
      ...Object.fromEntries(SERVICES.map((name) => [envName(name), databaseUrl(this.databases[name])])),
      ...(app === 'gateway'
        ? { PORT: String(this.ports.gateway), ADMIN_PORT: String(this.ports.admin), HOST: '127.0.0.1' }
        : {}),
      ...this.extraEnv,
      ...(this.serviceEnv[app] ?? {}),
      ...extra,
    };
    return env;
  }

  /**
   * Starts one service process (again, after a kill). `key` names an extra process of the same app (e.g. a second
   * gateway on other ports, `gateway#b`); pid(), alive() and kill() take the key.
   */
  start(app, extraEnv = {}, key = app) {
    const log = createWriteStream(join(this.dir, `${key.replace(/[^a-z0-9-]/gi, '_')}.log`), { flags: 'a' });
    log.write(`--- start ${new Date().toISOString()}\n`);
    const profile = this.profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${join(this.profileDir, key.replace(/[^a-z0-9-]/gi, '_'))}`]
      : [];
    // Node's own defaults, as a deployed service runs, and the run's probes or profiler flags.
    const child = spawn(
      process.execPath,
      [...this.nodeArgs, ...profile, this.mains[app] ?? require.resolve(`@switchboard/${app}/bundle`)],
      {
        cwd: root,
        env: this.envFor(app, extraEnv),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('exit', (code, signal) => log.end(`--- exit ${code ?? signal} ${new Date().toISOString()}\n`));
    this.children.set(key, child);
    return child;
  }

  pid(app) {
    return this.children.get(app)?.pid;
  }

  alive(app) {
    const child = this.children.get(app);
    return Boolean(child && running(child));
  }

  /** Sends a signal and waits for the process to end (SIGKILL is `kill -9`). */
  async kill(app, signal = 'SIGKILL') {
    const child = this.children.get(app);
    if (child) await stopProcess(child, signal, 20_000);
  }

  /** A service's own /readyz (HEALTH_PORT): NATS connected and its database answering. */
  async waitHealthy(app, timeoutMs = 60_000) {
    const url =
      app === 'gateway' ? `${this.publicUrl}/healthz` : `http://127.0.0.1:${this.ports[`health:${app}`]}/readyz`;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.alive(app)) throw new Error(`${app} exited while starting; see ${join(this.dir, `${app}.log`)}`);
      try {
        if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error(`${app} not healthy within ${timeoutMs} ms`);
  }

  /** The gateway's /readyz: 200 when NATS, its database and every service answer. */
  async waitReady(timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      for (const app of SERVICES)
        if (!this.alive(app)) throw new Error(`${app} exited while starting; see ${join(this.dir, `${app}.log`)}`);
      try {
        const answer = await fetch(`${this.publicUrl}/readyz`, { signal: AbortSignal.timeout(3000) });
        if (answer.status === 200) return;
        last = await answer.text();
      } catch (error) {
        last = error.message;
      }
      await sleep(300);
    }
    throw new Error(`system not ready within ${timeoutMs} ms: ${last}`);
  }

  /** Resident set size of one service process in MiB (from /proc), or undefined when it is not running. */
  rssMiB(app) {
    const pid = this.pid(app);
    if (!pid || !this.alive(app)) return undefined;
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      return Number.isFinite(kb) ? kb / 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** Samples every service's RSS every `everyMs` until `stop()`; returns { app: { max, mean, samples } }. */
  sampleMemory(everyMs = 250) {
    const samples = Object.fromEntries(SERVICES.map((app) => [app, []]));
    const take = () => {
      for (const app of SERVICES) {
        const value = this.rssMiB(app);
        if (value !== undefined) samples[app].push(value);
      }
    };
    take();
    const timer = setInterval(take, everyMs);
    return {
      stop() {
        clearInterval(timer);
        take();
        return Object.fromEntries(
          Object.entries(samples).map(([app, list]) => [
            app,
            {
              max_mib: Math.round(Math.max(...list)),
              mean_mib: Math.round(list.reduce((s, v) => s + v, 0) / (list.length || 1)),
              samples: list.length,
            },
          ]),
        );
      },
    };
  }

  /**
   * Counts the transactions each service's database commits (pg_stat_database; every statement outside an explicit
   * transaction is one): `const meter = await system.transactionMeter(); ...; await meter.stop()` gives
   * { app: transactions } over the phase. Backends report their counts within about a second, so stop() waits.
   */
  async transactionMeter() {
    const read = async () => {
      const { rows } = await onServer(
        `SELECT datname, xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname LIKE 'sb\\_bench\\_${this.run}\\_%'`,
      );
      const byDb = Object.fromEntries(rows.map((row) => [row.datname, Number(row.n)]));
      return Object.fromEntries(SERVICES.map((app) => [app, byDb[this.databases[app]] ?? 0]));
    };
    const before = await read();
    return {
      stop: async () => {
        await sleep(1200);
        const after = await read();
        return Object.fromEntries(SERVICES.map((app) => [app, after[app] - before[app]]));
      },
    };
  }

  /** Runs SQL in one service's database. */
  async sql(app, text, params = []) {
    return withClient(databaseUrl(this.databases[app]), async (db) => (await db.query(text, params)).rows);
  }

  printLogs(lines = 15) {
    for (const app of SERVICES) {
      const file = join(this.dir, `${app}.log`);
      if (!existsSync(file)) continue;
      const tail = readFileSync(file, 'utf8').trim().split('\n').slice(-lines);
      if (tail.length > 1) console.error(`--- ${app} (last lines of ${file})\n${tail.join('\n')}`);
    }
  }

  killAllNow() {
    for (const child of this.children.values()) if (running(child)) child.kill('SIGKILL');
    this.nats?.killNow();
  }

  async stop({ keepLogs = false } = {}) {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.allSettled([...this.children.keys()].map((key) => this.kill(key, 'SIGTERM')));
    await this.deleteStreams().catch((error) =>
      console.error(`could not delete streams of ${this.prefix}: ${error.message}`),
    );
    await this.nats?.stop('SIGTERM');
    for (const db of Object.values(this.databases))
      await dropDatabase(db).catch((error) => console.error(`could not drop ${db}: ${error.message}`));
    if (!keepLogs) rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }

  async deleteStreams() {
    if (this.nats && (this.nats.process?.exitCode !== null || this.nats.process?.signalCode !== null)) return;
    const { connect } = require('@nats-io/transport-node');
    const { jetstreamManager } = require('@nats-io/jetstream');
    const nc = await connect({ servers: this.natsUrl, timeout: 5000 });
    try {
      const jsm = await jetstreamManager(nc);
      const mine = `${this.prefix.toUpperCase().replace(/-/g, '_')}_`;
      for await (const stream of jsm.streams.list())
        if (stream.config.name.startsWith(mine)) await jsm.streams.delete(stream.config.name);
    } finally {
      await nc.close();
    }
  }
}
