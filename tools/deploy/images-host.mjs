// What building and running images needs on this host, made present when absent (ADR 0137): Debian's container
// tools installed with apt-get, and a Docker daemon that leaves the host's network alone. No image registry is
// reachable from these machines, so nothing here pulls: base images are made locally (base-images/make.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian packages by the command they provide. */
const PACKAGES = { dockerd: 'docker.io', buildah: 'buildah', debootstrap: 'debootstrap' };

/** The daemon's own directories; the host's /var/lib/docker is left to whoever else uses it. */
export const DOCKER_STATE_DIR = process.env.SWITCHBOARD_DOCKER_DIR || '/var/lib/switchboard-docker';
export const DOCKER_SOCKET = '/var/run/docker.sock';

export function log(message) {
  process.stderr.write(`images: ${message}\n`);
}

/** Runs a command with inherited output; throws with the command line when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
  return result;
}

/** Runs a command and returns its stdout (trimmed); null when it fails. */
export function output(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  return result.status === 0 ? result.stdout.trim() : null;
}

export function hasCommand(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * apt-get install of whichever of dockerd, buildah and debootstrap is missing, and of `more` ({ command: package }),
 * as root, no questions asked.
 */
export function ensureTools(more = {}) {
  const missing = Object.entries({ ...PACKAGES, ...more })
    .filter(([command]) => !hasCommand(command))
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`${missing.join(', ')} missing: install them as root (apt-get)`);
  log(`installing ${missing.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Others on this machine may hold the dpkg lock (another apt-get): wait for it rather than fail.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  // Its output to stderr: the cluster run's stdout is its one result line.
  const stdio = ['ignore', 2, 2];
  run('apt-get', [...lockWait, 'update', '-qq'], { env, stdio });
  run('apt-get', [...lockWait, 'install', '-y', '-qq', '--no-install-recommends', ...missing], { env, stdio });
}

/** The first `URIs:` of this machine's apt sources: the Debian mirror it reaches (never written to a file). */
export function debianMirror() {
  const dir = '/etc/apt/sources.list.d';
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.sources')) : [];
  for (const name of files.sort()) {
    const text = readFileSync(join(dir, name), 'utf8');
    const suites = text.match(/^Suites:\s*(.+)$/m)?.[1].split(/\s+/) ?? [];
    const uri = text.match(/^URIs:\s*(\S+)/m)?.[1];
    if (uri && suites.includes('bookworm')) return uri;
  }
  if (existsSync('/etc/apt/sources.list')) {
    const line = readFileSync('/etc/apt/sources.list', 'utf8').match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m);
    if (line) return line[1];
  }
  throw new Error('no Debian bookworm mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list');
}

export function dockerAnswers() {
  return output('docker', ['version', '--format', '{{.Server.Version}}']) !== null;
}

/**
 * A running dockerd, started when none answers on the default socket: no iptables rules, no forwarding, no
 * masquerading, no bridge (containers use the host network), its data and exec roots under DOCKER_STATE_DIR.
 * It keeps running after this process ends, for compose and the cluster run; it logs to DOCKER_STATE_DIR/dockerd.log.
 */
export async function ensureDockerd() {
  if (dockerAnswers()) return;
  mkdirSync(join(DOCKER_STATE_DIR, 'data'), { recursive: true });
  mkdirSync(join(DOCKER_STATE_DIR, 'exec'), { recursive: true });
  const logFile = join(DOCKER_STATE_DIR, 'dockerd.log');
  log(`starting dockerd (data in ${DOCKER_STATE_DIR}, log ${logFile})`);
  const logFd = openSync(logFile, 'a');
  const dockerd = spawn(
    'dockerd',
    [
      '--iptables=false',
      '--ip-forward=false',
      '--ip-masq=false',
      '--bridge=none',
      '--data-root',
      join(DOCKER_STATE_DIR, 'data'),
      '--exec-root',
      join(DOCKER_STATE_DIR, 'exec'),
      '--pidfile',
      join(DOCKER_STATE_DIR, 'dockerd.pid'),
    ],
    { detached: true, stdio: ['ignore', logFd, logFd] },
  );
  dockerd.unref();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (dockerAnswers()) return;
    if (dockerd.exitCode !== null) break;
    await sleep(500);
  }
  throw new Error(`dockerd did not answer on ${DOCKER_SOCKET} within 60 s; see ${logFile}`);
}
