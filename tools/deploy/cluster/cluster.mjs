// The cluster of deploy/compose/compose.cluster.yaml as the cluster run drives it: its env file and certificates,
// docker-compose and docker commands, its replicas and their ports, and waits on their readiness.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeCertificates } from '../../dev/tls.mjs';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const COMPOSE_FILE = join(ROOT, 'deploy', 'compose', 'compose.cluster.yaml');
export const PROJECT = process.env.CLUSTER_PROJECT || 'sbcluster';

export const APPS = ['gateway', 'numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'];

/** Every replica of compose.cluster.yaml with the port its probes answer on (the header lists them). */
export const REPLICAS = [
  { app: 'gateway', name: 'gateway-1', port: 13000, adminPort: 13001, tls: true },
  { app: 'gateway', name: 'gateway-2', port: 13010, adminPort: 13011, tls: true },
  { app: 'numbers-billing', name: 'numbers-billing-1', port: 13020 },
  { app: 'numbers-billing', name: 'numbers-billing-2', port: 13021 },
  { app: 'calls-media', name: 'calls-media-1', port: 13030 },
  { app: 'calls-media', name: 'calls-media-2', port: 13031 },
  { app: 'lostfound', name: 'lostfound-1', port: 13040 },
  { app: 'lostfound', name: 'lostfound-2', port: 13041 },
  { app: 'webhook-dispatcher', name: 'webhook-dispatcher-1', port: 13050 },
  { app: 'webhook-dispatcher', name: 'webhook-dispatcher-2', port: 13051 },
];
export const NATS_NODES = [
  { name: 'nats-1', client: 14222, monitor: 18222, route: 16222 },
  { name: 'nats-2', client: 14223, monitor: 18223, route: 16223 },
  { name: 'nats-3', client: 14224, monitor: 18224, route: 16224 },
];
export const POSTGRES_PORT = 15432;
export const PROMETHEUS_URL = 'http://127.0.0.1:19090';
export const OTLP_URL = 'http://127.0.0.1:14318';
/** The containers that are not service replicas: their logs go with a failure too. */
export const INFRASTRUCTURE = [...NATS_NODES.map((n) => n.name), 'postgres', 'prometheus', 'otlp-receiver'];

/** Every 127.0.0.1 port the cluster listens on (host network: compose.cluster.yaml's header lists them). */
export const HOST_PORTS = [
  ...REPLICAS.flatMap((r) => (r.adminPort ? [r.port, r.adminPort] : [r.port])),
  ...NATS_NODES.flatMap((n) => [n.client, n.monitor, n.route]),
  POSTGRES_PORT,
  Number(new URL(PROMETHEUS_URL).port),
  Number(new URL(OTLP_URL).port),
];

/**
 * The cluster's host ports that something else already listens on, each with its holder as `ss` names it. On the
 * host network a container whose port is taken exits at once and restarts in a loop, and the run would only see the
 * cluster never become healthy.
 */
export async function portsTaken(ports = HOST_PORTS) {
  const { createServer } = await import('node:net');
  const taken = [];
  for (const port of ports) {
    const free = await new Promise((resolvePromise) => {
      const server = createServer();
      server.once('error', () => resolvePromise(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(true)));
    });
    if (free) continue;
    const holder = spawnSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' }).stdout?.trim();
    taken.push(`${port} (${holder || 'holder unknown'})`);
  }
  return taken;
}
export const PUBLIC_URLS = REPLICAS.filter((r) => r.app === 'gateway').map((r) => `https://127.0.0.1:${r.port}`);
export const ADMIN_URLS = REPLICAS.filter((r) => r.app === 'gateway').map((r) => `https://127.0.0.1:${r.adminPort}`);

/** `<APP>_<N>_TAG`: the image tag one replica runs (compose.cluster.yaml). */
export function tagVariable(replicaName) {
  return `${replicaName.toUpperCase().replace(/-/g, '_')}_TAG`;
}

export function say(message) {
  process.stderr.write(`cluster: ${message}\n`);
}

/**
 * The cluster's state directory: its env file (secrets from deploy/compose/make-env.mjs, the PostgreSQL superuser's
 * password, the certificates' directory, the run's settings and each replica's tag) and its certificates: a CA, and
 * a server certificate for 127.0.0.1 the gateways serve and the test's webhook receiver uses.
 */
export function prepareState(dir, settings = {}) {
  mkdirSync(join(dir, 'tls'), { recursive: true });
  const tls = join(dir, 'tls');
  if (!existsSync(join(tls, 'server.pem'))) makeClusterCertificates(tls);
  const secrets = execFileSync(process.execPath, [join(ROOT, 'deploy', 'compose', 'make-env.mjs')], {
    encoding: 'utf8',
  });
  const envFile = join(dir, 'env');
  const previous = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};
  const values = {
    ...parseEnv(secrets),
    POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
    ...previous,
    // gateway-1's public address (compose.cluster.yaml), not the compose edge's that make-env.mjs writes.
    CONSOLE_URL: 'https://127.0.0.1:13000/console/',
    CLUSTER_TLS_DIR: tls,
    ...settings,
  };
  writeEnv(envFile, values);
  return { dir, envFile, tls, values, ca: readFileSync(join(tls, 'ca.pem'), 'utf8') };
}

export function parseEnv(text) {
  const values = {};
  for (const line of text.split('\n')) {
    const match = line.match(/^([A-Z0-9_]+)=(.*)$/);
    if (match) values[match[1]] = match[2];
  }
  return values;
}

export function writeEnv(file, values) {
  const lines = [
    '# Written by tools/deploy/cluster (compose.cluster.yaml). Local secrets: never commit, never reuse.',
    ...Object.entries(values).map(([key, value]) => `${key}=${value}`),
  ];
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}

/** A throwaway CA and a certificate for 127.0.0.1 and localhost, readable by the containers' uid 1000. */
function makeClusterCertificates(dir) {
  const { caFile, keyFile, certFile } = makeCertificates(dir, { name: 'Switchboard cluster CA', days: 7 });
  // The services run as uid 1000 and read these through a read-only mount; the CA's key stays private.
  for (const path of [caFile, certFile, keyFile]) chmodSync(path, 0o644);
  chmodSync(dir, 0o755);
}

/** docker-compose (Debian's 1.29) on the cluster's file, project and env file; throws with its output on failure. */
export function compose(state, args, { quiet = false } = {}) {
  const result = spawnSync(
    'docker-compose',
    ['-p', PROJECT, '-f', COMPOSE_FILE, '--env-file', state.envFile, ...args],
    {
      encoding: 'utf8',
      stdio: ['ignore', quiet ? 'pipe' : 2, 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.error) throw new Error(`docker-compose ${args.join(' ')} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `docker-compose ${args.join(' ')} exited with ${result.status}:\n${(result.stderr ?? '').slice(-4000)}`,
    );
  }
  return result.stdout ?? '';
}

export function docker(args, { allowFailure = false } = {}) {
  const result = spawnSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0 && !allowFailure) {
    throw new Error(`docker ${args.join(' ')} exited with ${result.status}: ${result.stderr.trim()}`);
  }
  return result.stdout.trim();
}

/** The container of a compose service (`<project>_<service>_1`, as docker-compose 1.29 names them). */
export function containerOf(service) {
  const id = docker([
    'ps',
    '-aq',
    '--filter',
    `label=com.docker.compose.project=${PROJECT}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
  ]).split('\n')[0];
  if (!id) throw new Error(`no container for ${service}`);
  return id;
}

export function inspect(service, format) {
  return docker(['inspect', '--format', format, containerOf(service)]);
}

/** The image (repository:tag) a replica's container runs. */
export function imageOf(service) {
  return inspect(service, '{{.Config.Image}}');
}

/** GET on the host network with a time-out; resolves to the status (0 when nothing answered). */
export async function probe(url, { ca, timeoutMs = 3000 } = {}) {
  const { request } = await import(url.startsWith('https') ? 'node:https' : 'node:http');
  return new Promise((resolvePromise) => {
    const req = request(url, { ca, timeout: timeoutMs }, (res) => {
      res.resume();
      resolvePromise(res.statusCode);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolvePromise(0));
    req.end();
  });
}

export function readyUrl(replica) {
  return `${replica.tls ? 'https' : 'http'}://127.0.0.1:${replica.port}/readyz`;
}

/** Which replicas answer /readyz 200 right now. */
export async function readiness(state) {
  const statuses = await Promise.all(REPLICAS.map((r) => probe(readyUrl(r), { ca: state.ca })));
  return Object.fromEntries(REPLICAS.map((r, i) => [r.name, statuses[i]]));
}

/** Waits until every replica in `names` (default: all) answers /readyz 200; returns the seconds it took. */
// Ten minutes: a replica's start-up waits on PostgreSQL and NATS, and on a machine shared with other work a start that
// takes 10 s alone was seen to take minutes, with the engine's restart back-off on top.
export async function waitReady(state, { names, timeoutMs = 600_000, label = 'every replica ready' } = {}) {
  const started = Date.now();
  const wanted = names ?? REPLICAS.map((r) => r.name);
  let last = {};
  while (Date.now() - started < timeoutMs) {
    last = await readiness(state);
    if (wanted.every((name) => last[name] === 200)) return (Date.now() - started) / 1000;
    await sleep(1000);
  }
  const notReady = wanted.filter((name) => last[name] !== 200).map((name) => `${name} (${last[name] || 'no answer'})`);
  throw new Error(`${label}: not within ${timeoutMs / 1000} s: ${notReady.join(', ')}`);
}

/** NATS: every node answers its JetStream health check (`/healthz?js-enabled-only=true` is too lax: full check). */
export async function waitNatsHealthy({ timeoutMs = 180_000 } = {}) {
  const started = Date.now();
  let statuses = [];
  while (Date.now() - started < timeoutMs) {
    statuses = await Promise.all(NATS_NODES.map((n) => probe(`http://127.0.0.1:${n.monitor}/healthz`)));
    if (statuses.every((s) => s === 200)) return (Date.now() - started) / 1000;
    await sleep(1000);
  }
  const last = NATS_NODES.map((n, i) => `${n.name} ${statuses[i] || 'no answer'}`).join(', ');
  throw new Error(`the NATS cluster was not healthy within ${timeoutMs / 1000} s: /healthz ${last}`);
}

/** JSON from an http(s) URL (the monitoring endpoints, Prometheus, the OTLP receiver). */
export async function getJson(url, { ca, timeoutMs = 10_000 } = {}) {
  const { request } = await import(url.startsWith('https') ? 'node:https' : 'node:http');
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { ca, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolvePromise({ status: res.statusCode, body: JSON.parse(text) });
        } catch {
          resolvePromise({ status: res.statusCode, body: text });
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Every stream of the cluster with its replica count and how many of its replicas are current. Each node's /jsz sees
 * the others' state only from where it stands (a follower may report a peer behind); the best view counts.
 */
export async function streamReplicas() {
  const streams = new Map();
  for (const node of NATS_NODES) {
    let body;
    try {
      ({ body } = await getJson(`http://127.0.0.1:${node.monitor}/jsz?accounts=true&streams=true&config=true`));
    } catch {
      continue; // that node is down: the others answer
    }
    for (const s of (body.account_details ?? []).flatMap((a) => a.stream_detail ?? [])) {
      const view = {
        name: s.name,
        replicas: s.config?.num_replicas ?? 1,
        leader: s.cluster?.leader,
        current: 1 + (s.cluster?.replicas ?? []).filter((r) => r.current).length,
        messages: s.state?.messages ?? 0,
      };
      const best = streams.get(s.name);
      if (!best || view.current > best.current) streams.set(s.name, view);
    }
  }
  if (streams.size === 0) throw new Error('no NATS node answered /jsz with streams');
  return [...streams.values()];
}

/** The last lines of a replica's log, for a failure report. */
export function logsOf(service, lines = 60) {
  try {
    return docker(['logs', '--tail', String(lines), containerOf(service)], { allowFailure: true });
  } catch (error) {
    return String(error.message);
  }
}
