// The databases `npm start` gives the services it starts (docs/adr/0098-npm-start-and-the-operator-cli.md).
// A service without `<APP>_DATABASE_URL` keeps its data under DATA_DIR either way; where is npm start's choice:
//   - PostgreSQL of its own: when PostgreSQL's server programs are installed, one server in DATA_DIR/postgres
//     (created once with initdb, listening on 127.0.0.1 on a free port, password authentication) with one database
//     and one user per service. One server for five services costs a fraction of five PGlite instances: each
//     embedded PGlite took 1.6 s of CPU and 250 MiB to start (ADR 0098 has the figures).
//   - each service's embedded PGlite in DATA_DIR/<app>: when PostgreSQL is not installed, when DATA_DIR already
//     holds PGlite databases from an earlier start (their data stays where it is), or when EMBEDDED_DATABASE=pglite.
// The choice is a plain function of the environment and what is on disk, so it is unit-tested (postgres.spec.ts);
// the server itself is tested by postgres.int-spec.ts.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.mjs';
import { isRunning } from './run-file.mjs';

/** `EMBEDDED_DATABASE`: `postgres` or `pglite` chooses for npm start; unset (or `auto`) lets it choose. */
export const CHOICE_VARIABLE = 'EMBEDDED_DATABASE';
const CHOICES = ['auto', 'postgres', 'pglite'];

/** `numbers-billing` -> `NUMBERS_BILLING_DATABASE_URL` (libs/persistence's rule, which this script cannot import). */
export function databaseUrlVariable(service) {
  return `${service.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
}

/** A service's database and user in npm start's own server: `numbers-billing` -> `numbers_billing`. */
export function databaseName(service) {
  return service.replace(/-/g, '_');
}

/** Where npm start keeps its own PostgreSQL: the cluster, its log and the generated passwords. */
export function postgresDir(dataDir) {
  return join(dataDir, 'postgres');
}

/** Why npm start cannot give the services databases; its message is for the person at the terminal. */
export class DatabaseChoiceError extends Error {}

function isDirectory(path) {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The major version a PostgreSQL data directory was made by (its PG_VERSION file), or undefined. */
function clusterVersion(clusterDir) {
  const file = join(clusterDir, 'PG_VERSION');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** The major version of the PostgreSQL programs in `bin` (`postgres --version`), or undefined when not runnable. */
function programsVersion(bin) {
  const result = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? /\(PostgreSQL\) (\d+)/.exec(result.stdout)?.[1] : undefined;
}

/**
 * Directories holding PostgreSQL's server programs (`initdb` and `postgres`), each with its major version: those on
 * PATH first, then where distributions put them beside other versions (Debian and Ubuntu, Red Hat, Homebrew's
 * versioned formulas), newest first.
 */
export function findPostgresPrograms(env = process.env) {
  const dirs = (env.PATH ?? '').split(':').filter(Boolean);
  const versioned = [
    ['/usr/lib/postgresql', (entry) => join('/usr/lib/postgresql', entry, 'bin')],
    ['/usr', (entry) => (entry.startsWith('pgsql-') ? join('/usr', entry, 'bin') : undefined)],
    [
      '/opt/homebrew/opt',
      (entry) => (entry.startsWith('postgresql@') ? join('/opt/homebrew/opt', entry, 'bin') : undefined),
    ],
    ['/usr/local/opt', (entry) => (entry.startsWith('postgresql@') ? join('/usr/local/opt', entry, 'bin') : undefined)],
  ];
  for (const [parent, binOf] of versioned) {
    if (!isDirectory(parent)) continue;
    const found = readdirSync(parent)
      .map(binOf)
      .filter(Boolean)
      .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
    dirs.push(...found);
  }
  const programs = [];
  for (const bin of new Set(dirs)) {
    if (!existsSync(join(bin, 'initdb')) || !existsSync(join(bin, 'postgres'))) continue;
    const version = programsVersion(bin);
    if (version) programs.push({ bin, version });
  }
  return programs;
}

/** The uid and gid of a system user, from /etc/passwd (undefined where there is none). */
function systemUser(name) {
  if (!existsSync('/etc/passwd')) return undefined;
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name) return { uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/**
 * @typedef {{ prefix: string[], owner?: { uid: number, gid: number }, error?: undefined }
 *   | { error: string, prefix?: undefined, owner?: undefined }} Runner
 * @typedef {{ bin: string, version: string }} Programs
 */

/**
 * How to run PostgreSQL's programs: as ourselves, or, since PostgreSQL refuses to run as root, as the `postgres`
 * user (which the distributions' packages create) through util-linux's setpriv, which execs the program itself so
 * that signals reach the server. `{ error }` when neither is possible.
 */
/** @returns {Runner} */
export function postgresRunner(uid = process.getuid?.(), env = process.env) {
  if (uid !== 0) return { prefix: [] };
  const user = systemUser('postgres');
  const setpriv = [
    '/usr/bin/setpriv',
    '/bin/setpriv',
    ...(env.PATH ?? '').split(':').map((dir) => join(dir, 'setpriv')),
  ]
    .filter((path) => path.startsWith('/'))
    .find((path) => existsSync(path));
  if (!user || !setpriv) {
    return { error: 'npm start runs as root, which PostgreSQL refuses, and there is no "postgres" user to run it as' };
  }
  return {
    prefix: [setpriv, `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--'],
    owner: user,
  };
}

/**
 * The first directory on the way to `dir` that `owner` (the user PostgreSQL runs as) cannot pass through, or
 * undefined when it can reach `dir` (a DATA_DIR inside a home directory of mode 0700, say, it cannot).
 */
export function unreachableBy(owner, dir) {
  const parts = resolve(dir).split(sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const path = sep + parts.slice(0, i).join(sep);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return undefined; // created below by us, for the server's user
    const bit = stat.uid === owner.uid ? 0o100 : stat.gid === owner.gid ? 0o010 : 0o001;
    if (!(stat.mode & bit)) return path;
  }
  return undefined;
}

/**
 * The databases for `services`: `{ kind: 'urls' }` when each has `<APP>_DATABASE_URL`; `{ kind: 'postgres',
 * programs, runner, services, existing }` to run a server of our own for those without (`existing`: made by an
 * earlier start); `{ kind: 'pglite', why }` when each
 * opens its embedded PGlite. Throws DatabaseChoiceError where going on would hide data (a server of ours in DATA_DIR
 * with no programs to run it) or the choice is not understood.
 */
/**
 * @param {{ dataDir: string, services: string[], env?: Record<string, string | undefined>,
 *   findPrograms?: (env: Record<string, string | undefined>) => Programs[],
 *   runner?: (uid?: number, env?: Record<string, string | undefined>) => Runner }} options
 */
export function chooseDatabases({
  dataDir,
  services,
  env = process.env,
  findPrograms = findPostgresPrograms,
  runner = postgresRunner,
}) {
  const without = services.filter((service) => !env[databaseUrlVariable(service)]?.trim());
  if (without.length === 0) return { kind: 'urls' };
  const choice = env[CHOICE_VARIABLE]?.trim().toLowerCase() || 'auto';
  if (!CHOICES.includes(choice)) {
    throw new DatabaseChoiceError(
      `${CHOICE_VARIABLE} must be one of ${CHOICES.join(', ')}; got "${env[CHOICE_VARIABLE]}"`,
    );
  }
  const clusterDir = join(postgresDir(dataDir), 'cluster');
  const ours = clusterVersion(clusterDir);
  const pgliteData = without.filter((service) => existsSync(join(dataDir, service, 'PG_VERSION')));
  if (choice === 'pglite') return { kind: 'pglite', why: `${CHOICE_VARIABLE}=pglite` };
  if (choice === 'auto' && !ours && pgliteData.length > 0) {
    return {
      kind: 'pglite',
      why: `${relative(process.cwd(), dataDir) || '.'} holds their PGlite databases from an earlier start`,
    };
  }
  const programs = findPrograms(env);
  // A server we made before runs on the programs of its own major version; a new one on the newest found.
  const usable = ours ? programs.find((found) => found.version === ours) : programs[0];
  if (!usable) {
    if (ours) {
      throw new DatabaseChoiceError(
        `${clusterDir} holds this system's data in PostgreSQL ${ours}, whose programs (initdb, postgres) are not ` +
          `installed or not on PATH: install PostgreSQL ${ours}, or set ${CHOICE_VARIABLE}=pglite to start on empty embedded databases`,
      );
    }
    if (choice === 'postgres') {
      throw new DatabaseChoiceError(
        `${CHOICE_VARIABLE}=postgres, but PostgreSQL's programs (initdb, postgres) are not installed or not on PATH`,
      );
    }
    return {
      kind: 'pglite',
      why: 'PostgreSQL is not installed (with it, npm start runs one server for all services and starts faster)',
    };
  }
  const run = runner(undefined, env);
  const blocked = run.owner && unreachableBy(run.owner, postgresDir(dataDir));
  const error = run.error ?? (blocked && `PostgreSQL would run as the "postgres" user, who cannot enter ${blocked}`);
  if (error) {
    if (ours || choice === 'postgres') throw new DatabaseChoiceError(error);
    return { kind: 'pglite', why: error };
  }
  return { kind: 'postgres', programs: usable, runner: run, services: without, existing: Boolean(ours) };
}

/** The last lines of a log file, to say why a server did not start. */
function tail(file, lines = 15) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function waitForExit(pid, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (!isRunning(pid)) return true;
    await sleep(50);
  }
  return !isRunning(pid);
}

/**
 * npm start's own PostgreSQL server in `dir` (DATA_DIR/postgres): `cluster/` (made by initdb on the first start),
 * `postgres.log`, and `passwords.json` (mode 0600: the superuser's and each service's, generated once). `start()`
 * resolves to each service's URL; `stop()` shuts the server down (fast shutdown: sessions end, data is flushed).
 */
export class OwnPostgres {
  #dir;
  #programs;
  #runner;
  #services;
  #say;
  #server;
  #port;
  #stopping = false;

  constructor({ dir, programs, runner, services, say = () => undefined }) {
    this.#dir = dir;
    this.#programs = programs;
    this.#runner = runner;
    this.#services = services;
    this.#say = say;
  }

  get #clusterDir() {
    return join(this.#dir, 'cluster');
  }

  get #logFile() {
    return join(this.#dir, 'postgres.log');
  }

  /** Runs one of PostgreSQL's programs as the user the cluster belongs to. */
  #command(program, args) {
    const [command, ...prefix] = [...this.#runner.prefix, join(this.#programs.bin, program)];
    return { command, args: [...prefix, ...args] };
  }

  #ownedByServer(path) {
    if (this.#runner.owner) chownSync(path, this.#runner.owner.uid, this.#runner.owner.gid);
  }

  #passwords() {
    const file = join(this.#dir, 'passwords.json');
    const saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    let changed = false;
    for (const name of ['postgres', ...this.#services]) {
      if (!saved[name]) {
        saved[name] = randomBytes(24).toString('base64url');
        changed = true;
      }
    }
    if (changed) writeFileSync(file, JSON.stringify(saved, null, 2) + '\n', { mode: 0o600 });
    return saved;
  }

  #initialise(superuserPassword) {
    const cluster = this.#clusterDir;
    // A directory without PG_VERSION is an initdb that did not finish; initdb wants it empty.
    rmSync(cluster, { recursive: true, force: true });
    mkdirSync(cluster, { mode: 0o700 });
    this.#ownedByServer(cluster);
    const passwordFile = join(this.#dir, 'initdb-password');
    writeFileSync(passwordFile, superuserPassword, { mode: 0o600 });
    this.#ownedByServer(passwordFile);
    this.#say(`creating PostgreSQL ${this.#programs.version}'s data directory in ${cluster} (first start)`);
    try {
      const { command, args } = this.#command('initdb', [
        '--pgdata',
        cluster,
        '--username',
        'postgres',
        '--auth',
        'scram-sha-256',
        '--pwfile',
        passwordFile,
        '--encoding',
        'UTF8',
        '--no-locale',
      ]);
      const result = spawnSync(command, args, { encoding: 'utf8' });
      if (result.status !== 0) {
        rmSync(cluster, { recursive: true, force: true });
        throw new DatabaseChoiceError(
          `initdb failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.error?.message || '').trim()}`,
        );
      }
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }

  /** A server left running by an npm start that was killed: stopped, so that this start owns the cluster. */
  async #stopLeftover() {
    const pidFile = join(this.#clusterDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return;
    this.#say(`stopping the PostgreSQL (pid ${pid}) an earlier npm start left running`);
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 30_000))) {
      throw new DatabaseChoiceError(`PostgreSQL pid ${pid} on ${this.#clusterDir} did not stop in 30 s`);
    }
  }

  /** Starts the server and makes each service's database and user; resolves to `{ <service>: url }`. */
  async start() {
    // DATA_DIR as any directory (the server's user passes through it), ours alone inside.
    mkdirSync(dirname(this.#dir), { recursive: true });
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    // Its log and passwords are ours alone, also in a directory an earlier version made looser.
    chmodSync(this.#dir, 0o700);
    // The server's user must reach its cluster inside; the passwords file beside it stays ours alone (0600).
    this.#ownedByServer(this.#dir);
    const passwords = this.#passwords();
    if (!clusterVersion(this.#clusterDir)) this.#initialise(passwords.postgres);
    await this.#stopLeftover();
    const port = (this.#port = await freePort());
    this.serve();
    const exited = new Promise((resolve) => this.#server.once('exit', (code, signal) => resolve(code ?? signal)));
    const superuser = { host: '127.0.0.1', port, user: 'postgres', password: passwords.postgres, database: 'postgres' };
    const client = await this.#connect(superuser, exited);
    try {
      /** @type {Record<string, string>} */
      const urls = {};
      for (const service of this.#services) {
        const name = databaseName(service);
        const role = client.escapeIdentifier(name);
        const password = client.escapeLiteral(passwords[service]);
        const roleExists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
        // ALTER as well as CREATE: passwords.json is the truth, also after it was edited or restored.
        await client.query(`${roleExists.rowCount ? 'ALTER' : 'CREATE'} ROLE ${role} LOGIN PASSWORD ${password}`);
        const databaseExists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (!databaseExists.rowCount) await client.query(`CREATE DATABASE ${role} OWNER ${role}`);
        // Each service reaches its own database only, as it would on separate servers.
        await client.query(`REVOKE CONNECT ON DATABASE ${role} FROM PUBLIC`);
        urls[service] =
          `postgres://${name}:${encodeURIComponent(passwords[service])}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
      }
      return { port, urls, exited };
    } finally {
      await client.end();
    }
  }

  /**
   * The server's process: the one running, or a new one on the same cluster and port (npm start's supervisor calls
   * this again after the server died, so that the services' URLs still hold). It runs in a process group of its own:
   * a terminal's Ctrl-C reaches npm start and the services, not the server, which npm start stops after them.
   * @returns {import('node:child_process').ChildProcess}
   */
  serve() {
    if (this.#server && this.#server.exitCode === null && this.#server.signalCode === null) return this.#server;
    if (this.#port === undefined) throw new Error('OwnPostgres.serve() before start()');
    const log = openSync(this.#logFile, 'a');
    const { command, args } = this.#command('postgres', [
      '-D',
      this.#clusterDir,
      '-p',
      String(this.#port),
      '-c',
      'listen_addresses=127.0.0.1',
      // TCP only: no socket file in a directory that may not exist here (Debian's /var/run/postgresql).
      '-c',
      'unix_socket_directories=',
      // The five services' pools hold up to about 70 connections (docs/performance.md); a restart briefly doubles one's.
      '-c',
      'max_connections=200',
    ]);
    try {
      this.#server = spawn(command, args, { stdio: ['ignore', log, log], detached: true });
    } finally {
      closeSync(log);
    }
    return this.#server;
  }

  /** The superuser's connection, once the server accepts it (within 30 s), or the reason it will not. */
  async #connect(config, exited) {
    // Imported here, not above: npm start loads this file before it installs a fresh clone's dependencies.
    const { default: pg } = await import('pg');
    let lastError;
    let exitedWith;
    void exited.then((code) => (exitedWith = code));
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && exitedWith === undefined;) {
      const client = new pg.Client(config);
      try {
        await client.connect();
        return client;
      } catch (error) {
        lastError = error;
        await client.end().catch(() => undefined);
        await sleep(50);
      }
    }
    const why =
      exitedWith !== undefined
        ? `exited (${exitedWith})`
        : `did not accept connections in 30 s (${lastError?.message})`;
    await this.stop();
    throw new DatabaseChoiceError(`PostgreSQL ${why}; the end of ${this.#logFile}:\n${tail(this.#logFile)}`);
  }

  /** Fast shutdown, then SIGKILL after 10 s. Idempotent. */
  async stop() {
    if (this.#stopping) return;
    this.#stopping = true;
    const server = this.#server;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exit = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    // The timer must not keep a process alive after the server is gone (the child's handle does while it lives).
    const stopped = await Promise.race([exit.then(() => true), sleep(10_000, false, { ref: false })]);
    if (!stopped) {
      server.kill('SIGKILL');
      await exit;
    }
  }

  /** Asks the server for a fast shutdown without waiting: for a process that is exiting (`process.on('exit')`). */
  kill() {
    if (this.#server && this.#server.exitCode === null && this.#server.signalCode === null) this.#server.kill('SIGINT');
  }

  /** Whether stop() was asked for (an exit before it is a crash). */
  get stopping() {
    return this.#stopping;
  }
}
