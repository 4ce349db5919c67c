#!/usr/bin/env node
// `npm start`: the whole of Switchboard on one machine, in the foreground.
// Installs and builds what is missing, makes sure NATS (with JetStream) answers, gives the five services databases
// under DATA_DIR unless <APP>_DATABASE_URL is set (one PostgreSQL server of its own when PostgreSQL is installed,
// else each service's embedded PGlite: postgres.mjs), restarts one that dies (with backoff; the others keep
// running), restarts the PostgreSQL and nats-server it started itself the same way, and on Ctrl-C stops the services
// first, then the database and the bus.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withBuildLock } from './build-lock.mjs';
import { buildConsoleIfStale } from './console-build.mjs';
import { freePort } from './free-port.mjs';
import { installWhatIsMissing } from './install-missing.mjs';
import { leftoverProcesses, readProcesses, stopProcesses } from './leftovers.mjs';
import { chooseDatabases, databaseUrlVariable, DatabaseChoiceError, OwnPostgres, postgresDir } from './postgres.mjs';
import { removeRunFile, runFileContents, runFilePath, writeRunFile } from './run-file.mjs';
import { bundlePath, bundleServices, SERVICES } from './service-bundles.mjs';
import { SERVICE_ENV } from './service-env.mjs';
import { Supervisor } from './supervisor.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const env = { ...process.env };
env.DATA_DIR = resolve(root, env.DATA_DIR || '.data');
// Whether the person chose a NATS server; without a choice we run our own locked one (ensureNats).
const natsUrlGiven = Boolean(env.NATS_URL);
env.NATS_URL ||= 'nats://127.0.0.1:4222';
env.PORT ||= '3000';
env.ADMIN_PORT ||= '3001';
// The web console the gateway serves at /console/ (apps/console, built below when stale).
env.CONSOLE_DIST_DIR ||= join(root, 'apps', 'console', 'dist');
let supervisor;
/**
 * The PostgreSQL and nats-server npm start runs itself, each supervised once it is up: one that dies is started again
 * on the same port with the same configuration (its data is on disk), with the services' backoff. Stopped after them.
 */
const infrastructure = new Supervisor({ services: [], say });
let natsServer;
/** npm start's own PostgreSQL server, when it runs one (postgres.mjs). */
let ownPostgres;
/** Each service's NATS password (its user is its name): generated for our own nats-server, or `<APP>_NATS_PASSWORD`. */
let natsPasswords = {};
let stopping = false;

function say(message) {
  console.log(`[switchboard] ${message}`);
}

/** Runs a step of the start in the foreground; the event loop goes on meanwhile (the database server starts). */
async function run(command, args, what) {
  say(`${what}...`);
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
  const status = await new Promise((done) => {
    child.once('error', () => done(null));
    child.once('exit', (code) => done(code));
  });
  if (status !== 0) {
    say(`${what} failed (exit ${status}).`);
    process.exit(status ?? 1);
  }
}

function canConnect(url) {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = createConnection({ host: hostname, port: Number(port || 4222) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
    socket.once('timeout', () => (socket.destroy(), done(false)));
  });
}

function findNatsServer() {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/bin', '/usr/bin'])) {
    const candidate = join(dir, 'nats-server');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** `<APP>_NATS_PASSWORD`, e.g. `GATEWAY_NATS_PASSWORD`: a service's password on a NATS server we did not start. */
function passwordVariable(name) {
  return `${name.toUpperCase().replace(/-/g, '_')}_NATS_PASSWORD`;
}

/** The variables that make one service connect as its own NATS user (none on an open server). */
function natsEnv(name) {
  return natsPasswords[name] ? { NATS_USER: name, NATS_PASSWORD: natsPasswords[name] } : {};
}

/**
 * Our own nats-server's configuration, from the one definition of the services' grants (libs/messaging, built
 * above): every service a user with a password generated once into DATA_DIR/nats/passwords.json (mode 0600).
 */
function writeNatsConfig(storeDir, listen) {
  // The module alone, not the library's index: that loads Nest and the NATS client, 0.8 s of a start.
  const { natsServerConfig, serviceUsers } = createRequire(import.meta.url)(
    join(root, 'libs', 'messaging', 'dist', 'bus-permissions.js'),
  );
  const passwordFile = join(storeDir, 'passwords.json');
  const saved = existsSync(passwordFile) ? JSON.parse(readFileSync(passwordFile, 'utf8')) : {};
  const users = serviceUsers(
    env.NATS_SUBJECT_PREFIX || 'sb',
    (name) => (saved[name] ||= randomBytes(24).toString('base64url')),
  );
  writeFileSync(passwordFile, JSON.stringify(saved, null, 2) + '\n', { mode: 0o600 });
  const configFile = join(storeDir, 'nats-server.conf');
  const header =
    'Written by npm start (tools/dev/start.mjs) from libs/messaging/src/bus-permissions.ts; rewritten at every start.';
  writeFileSync(configFile, natsServerConfig({ listen, storeDir, users, header }), { mode: 0o600 });
  natsPasswords = saved;
  return configFile;
}

async function ensureNats() {
  // With no NATS_URL chosen and nats-server installed, the system runs on a nats-server of its own with one user per
  // service, as the tests do (a missing grant fails here too), even when an open server already answers on 4222.
  if (!natsUrlGiven && findNatsServer() && (await canConnect(env.NATS_URL))) {
    env.NATS_URL = `nats://127.0.0.1:${await freePort()}`;
  }
  if (await canConnect(env.NATS_URL)) {
    for (const name of SERVICES) if (env[passwordVariable(name)]) natsPasswords[name] = env[passwordVariable(name)];
    const given = SERVICES.filter((name) => natsPasswords[name]);
    if (given.length > 0 && given.length < SERVICES.length) {
      say(
        `NATS passwords are set for ${given.join(', ')} but not for ${SERVICES.filter((name) => !natsPasswords[name]).join(', ')}: set all ${SERVICES.map(passwordVariable).join(', ')} or none.`,
      );
      process.exit(1);
    }
    say(
      `using NATS at ${env.NATS_URL} ${given.length ? "with each service's <APP>_NATS_PASSWORD" : 'without credentials'}`,
    );
    return;
  }
  const binary = findNatsServer();
  if (!binary) {
    say(`no NATS server answers at ${env.NATS_URL} and nats-server is not installed.`);
    say(
      'Install it (Debian/Ubuntu: sudo apt-get install nats-server; macOS: brew install nats-server) or set NATS_URL.',
    );
    process.exit(1);
  }
  const { hostname, port } = new URL(env.NATS_URL);
  const storeDir = join(env.DATA_DIR, 'nats');
  // The JetStream store holds the events' payloads (calls, webhooks): this user's alone, also when made looser before.
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  chmodSync(storeDir, 0o700);
  const configFile = writeNatsConfig(storeDir, `${hostname}:${port || 4222}`);
  say(
    `starting ${binary} -c ${configFile} on ${hostname}:${port || 4222}: JetStream, one user per service (docs/operations.md)`,
  );
  // A process group of its own: a terminal's Ctrl-C reaches npm start and the services, not the bus, which stop()
  // stops after them. A restart runs the same command: the same port and users, so the services reconnect.
  const serve = () => {
    if (natsServer?.exitCode === null && natsServer.signalCode === null) return natsServer;
    return (natsServer = spawn(binary, ['-c', configFile], { stdio: ['ignore', 'ignore', 'inherit'], detached: true }));
  };
  serve();
  const exited = new Promise((resolve) => natsServer.once('exit', (code, signal) => resolve(code ?? signal)));
  // nats-server listens within tens of milliseconds; a refused connection costs nothing.
  for (let i = 0; i < 250 && natsServer.exitCode === null && natsServer.signalCode === null; i++) {
    if (await canConnect(env.NATS_URL)) {
      if (!stopping) infrastructure.add({ name: 'nats-server', spawn: serve });
      return;
    }
    await sleep(20);
  }
  say(
    natsServer.exitCode === null && natsServer.signalCode === null
      ? 'nats-server did not start listening in 5 s.'
      : `nats-server exited (${await exited}) before it listened; see its lines above.`,
  );
  await stop(1);
}

/**
 * Starts the services' databases: resolves once each service without `<APP>_DATABASE_URL` has one set in `env`, or
 * knows it opens its embedded PGlite. Called before the build so that a server of our own starts beside it.
 */
async function startDatabases() {
  const choice = chooseDatabases({ dataDir: env.DATA_DIR, services: SERVICES, env });
  if (choice.kind === 'urls') return;
  if (choice.kind === 'pglite') {
    say(`databases: each service's embedded PGlite in ${env.DATA_DIR}/<service> (${choice.why})`);
    return;
  }
  ownPostgres = new OwnPostgres({
    dir: postgresDir(env.DATA_DIR),
    programs: choice.programs,
    runner: choice.runner,
    services: choice.services,
    say,
  });
  let started;
  try {
    started = await ownPostgres.start();
  } catch (error) {
    // A server that never held data is not worth stopping for: this start (and the next) use PGlite instead.
    if (choice.existing || !(error instanceof DatabaseChoiceError)) throw error;
    rmSync(join(postgresDir(env.DATA_DIR), 'cluster'), { recursive: true, force: true });
    ownPostgres = undefined;
    say(`${error.message}`);
    say(`databases: each service's embedded PGlite in ${env.DATA_DIR}/<service> instead`);
    return;
  }
  const { port, urls } = started;
  for (const [service, url] of Object.entries(urls)) env[databaseUrlVariable(service)] = url;
  say(
    `databases: PostgreSQL ${choice.programs.version} of its own on 127.0.0.1:${port} (${postgresDir(env.DATA_DIR)}), a database and user each for ${choice.services.join(', ')}`,
  );
  // From now on a server that dies is started again on the same port (its log: DATA_DIR/postgres/postgres.log).
  // SIGINT is PostgreSQL's fast shutdown: sessions end, data is flushed.
  const server = ownPostgres;
  if (!stopping) infrastructure.add({ name: 'postgres', spawn: () => server.serve(), stopSignal: 'SIGINT' });
}

function serviceProcesses() {
  return SERVICES.map((name) => ({
    name,
    command: process.execPath,
    // Each service's bundle (ADR 0099), run as plain `node <bundle>` like everywhere else. Not
    // --enable-source-maps: reading the bundle's map costs every start (ADR 0098); NODE_OPTIONS=--enable-source-maps
    // npm start brings it back.
    args: [bundlePath(root, name)],
    options: { cwd: root, env: { ...SERVICE_ENV, ...env, ...natsEnv(name) } },
  }));
}

/** Asks the gateway's /readyz every 100 ms (a connection refused costs nothing) for up to 2 minutes. */
async function waitUntilReady() {
  const url = `http://127.0.0.1:${env.PORT}/readyz`;
  for (let i = 0; i < 1200 && !stopping; i++) {
    try {
      const answer = await fetch(url);
      if (answer.status === 200) return true;
    } catch {
      // not listening yet
    }
    // Every 500 ms cost a start 250 ms on average after the system was ready (issue 19: start-up < 8 s).
    await sleep(100);
  }
  return false;
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  say('stopping...');
  // The services first, while the database and the bus still answer them: they drain and close their connections
  // without an error to log. Then the database and the bus.
  await supervisor?.stop();
  if (infrastructure.services.length > 0) {
    say(`services stopped; stopping ${infrastructure.services.map(({ name }) => name).join(' and ')}`);
  }
  await infrastructure.stop();
  // Those not supervised yet (a stop while they were starting).
  await ownPostgres?.stop();
  if (natsServer && natsServer.exitCode === null && natsServer.signalCode === null) {
    const exited = new Promise((resolve) => natsServer.once('exit', resolve));
    natsServer.kill('SIGTERM');
    await Promise.race([exited, sleep(5000, undefined, { ref: false })]);
  }
  say('stopped.');
  process.exit(code);
}

process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

if (!installWhatIsMissing({ root, say, env })) process.exit(1);
const leftovers = leftoverProcesses({ root, dataDir: env.DATA_DIR, services: SERVICES, processes: readProcesses() });
if (leftovers.length > 0) {
  say(
    `stopping what an earlier npm start left running: ${leftovers.map(({ name, pid }) => `${name} (pid ${pid})`).join(', ')}`,
  );
  await stopProcesses(leftovers);
}
mkdirSync(env.DATA_DIR, { recursive: true });
const databasesStarted = startDatabases();
// Also when the build fails (process.exit): the servers must not outlive npm start (they do not get a terminal's
// Ctrl-C: a process group of their own).
process.once('exit', () => {
  ownPostgres?.kill();
  if (natsServer?.exitCode === null && natsServer.signalCode === null) natsServer.kill('SIGTERM');
});
// Awaited after the build; a failure meanwhile must not end the process as an unhandled rejection.
databasesStarted.catch(() => undefined);
// One build of this checkout at a time (a second terminal, or the tests that build): build-lock.mjs. A failed step
// exits the process, which frees the lock too (its owner is gone).
await withBuildLock(
  async () => {
    await run(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'],
      'building',
    );
    if (!(await bundleServices({ root, say }))) process.exit(1);
    if (!buildConsoleIfStale({ root, say, env })) process.exit(1);
  },
  { root, say },
);
await ensureNats();
try {
  await databasesStarted;
} catch (error) {
  say(error instanceof DatabaseChoiceError ? error.message : `the databases did not start: ${error.stack}`);
  await stop(1);
}
// A service that dies is restarted with backoff while the others keep running (supervisor.mjs, ADR 0098).
supervisor = new Supervisor({ services: serviceProcesses(), say });
supervisor.start();
// The operator CLI in another terminal finds the system through this file (run-file.mjs); it goes when npm start does.
const runFile = runFilePath(env, root);
writeRunFile(runFile, runFileContents(env));
process.once('exit', () => removeRunFile(runFile));
if (await waitUntilReady()) {
  say(
    `ready. Public API http://127.0.0.1:${env.PORT}/v1 (reference: /docs), operator API http://127.0.0.1:${env.ADMIN_PORT}/admin`,
  );
  say(
    `console: http://127.0.0.1:${env.PORT}/console/ (invite its first user: npm run -s admin -- users invite <account_id> <email>, then open the invite_url)`,
  );
  if (!process.env.ADMIN_TOKEN) say(`operator token: in ${join(env.DATA_DIR, 'admin-token')} (npm run admin reads it)`);
  say(
    `try, in another terminal here: npm run -s admin -- accounts create --name "Acme" --balance 5000 (it finds this system through ${runFile}); Ctrl-C stops everything.`,
  );
} else if (!stopping) {
  say('the system did not become ready in 2 minutes; see the logs above.');
}
