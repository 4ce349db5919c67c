#!/usr/bin/env node
// node tools/deploy/images-check.mjs   (or: npm run deploy:images -- --check, which builds first)
//
// Proves the built service images do what deploy/README.md says (ADR 0137), on the container engine, with the
// locally made PostgreSQL and nats-server images (so their official interfaces are proven too):
//   - each image's user is uid 1000 and its service process runs as uid 1000 (read from the host's /proc);
//   - each image's migration job (`node /app/migrate.cjs`) applies every migration the app has to an empty
//     database, then finds nothing to do;
//   - the five services, run together from their images as compose runs them (read-only root, no capabilities,
//     host network on ports of their own), each answer /readyz with 200; the gateway's needs the four others;
//   - each stops on SIGTERM with exit code 0;
//   - each adds less than the target on top of its base image.
// Not part of `npm test` (which runs without a container engine): the deploy checks run it (npm run deploy:test).
// Skips, saying why, when no engine answers. Images: switchboard/<app>:$SWITCHBOARD_TAG (default local).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../dev/free-port.mjs';
import { composeBaseImages, recipeFor } from './base-images/make.mjs';
import { dockerAnswers } from './images-host.mjs';
import { ADDED_MB_TARGET, APPS, DOCKERFILE, dockerfileNodeImage, imageName, imageSizes } from './images.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TAG = process.env.SWITCHBOARD_TAG || 'local';
const NODE_IMAGE = process.env.NODE_IMAGE || dockerfileNodeImage(readFileSync(join(ROOT, DOCKERFILE), 'utf8'));
/** A service has this long to become ready (five Node.js services starting at once on a busy 2-core machine). */
const READY_WITHIN_MS = 180_000;
/** The services stop within 15 s of SIGTERM (docs/architecture.md); compose gives them 20. */
const STOP_GRACE_SECONDS = 20;
/** Containers this run starts are named with it, and only those are removed at the end. */
const RUN_ID = `sb-imgcheck-${process.pid}`;

/** The PostgreSQL and nats-server images the compose files name (the cluster's first), made by deploy:images. */
function composeImageOf(kind, fallback) {
  return (
    composeBaseImages(ROOT).find((reference) => recipeFor(reference)?.kind === kind && imagePresent(reference)) ??
    fallback
  );
}

function docker(args, { allowFailure = false, timeout = 120_000 } = {}) {
  const result = spawnSync('docker', args, { encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
  if (!allowFailure && result.status !== 0) {
    throw new Error(`docker ${args.join(' ')} exited with ${result.status ?? result.signal}: ${result.stderr.trim()}`);
  }
  return result;
}

function imagePresent(reference) {
  return docker(['image', 'inspect', reference], { allowFailure: true }).status === 0;
}

/** The flags compose gives every service container (deploy/compose): what the image must work under. */
const HARDENED = ['--read-only', '--tmpfs', '/tmp', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges:true'];

function envFlags(env) {
  return Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
}

async function waitFor(what, probe, withinMs) {
  const deadline = Date.now() + withinMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (last === true) return;
    } catch (error) {
      last = error.message;
    }
    await sleep(1000);
  }
  throw new Error(`${what} not within ${withinMs / 1000} s (last: ${JSON.stringify(last)})`);
}

async function httpStatus(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  await response.arrayBuffer();
  return response.status;
}

function migrationCount(app) {
  const dir = join(ROOT, 'apps', app, 'prisma', 'migrations');
  return readdirSync(dir, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')),
  ).length;
}

/** `<APP>_DATABASE_URL`'s prefix, as libs/persistence names it. */
function databaseVariable(app) {
  return `${app.toUpperCase().replaceAll('-', '_')}_DATABASE_URL`;
}

const skip = dockerAnswers()
  ? false
  : 'no container engine answers on /var/run/docker.sock (npm run deploy:images starts one)';

describe(`service images switchboard/<app>:${TAG}`, { skip }, () => {
  const started = [];
  const ports = {};
  const dbPassword = randomBytes(12).toString('hex');
  let postgresImage;
  let natsImage;

  function startContainer(name, args) {
    const fullName = `${RUN_ID}-${name}`;
    docker(['run', '-d', '--name', fullName, '--network', 'host', ...args]);
    started.push(fullName);
    return fullName;
  }

  function databaseUrl(app) {
    const name = app.replaceAll('-', '_');
    return `postgres://${name}:${dbPassword}@127.0.0.1:${ports.postgres}/${name}`;
  }

  before(async () => {
    for (const app of APPS)
      assert.ok(imagePresent(imageName(app, TAG)), `${imageName(app, TAG)} is built (npm run deploy:images)`);
    postgresImage = composeImageOf('postgres', 'postgres:15-bookworm');
    natsImage = composeImageOf('nats', 'nats:2.9');
    assert.ok(imagePresent(postgresImage), `${postgresImage} is made (npm run deploy:images)`);
    assert.ok(imagePresent(natsImage), `${natsImage} is made (npm run deploy:images)`);
    ports.postgres = await freePort();
    ports.nats = await freePort();
    ports.natsMonitor = await freePort();
    // The official images' interfaces: POSTGRES_* and PGPORT; nats-server's flags alone as the command.
    const postgres = startContainer('postgres', [
      '-e',
      `POSTGRES_PASSWORD=${dbPassword}`,
      '-e',
      `PGPORT=${ports.postgres}`,
      '--tmpfs',
      '/var/lib/postgresql/data',
      postgresImage,
    ]);
    startContainer('nats', [
      '--tmpfs',
      '/data',
      natsImage,
      '-p',
      String(ports.nats),
      '-m',
      String(ports.natsMonitor),
      '--jetstream',
      '--store_dir',
      '/data',
    ]);
    await waitFor(
      `${postgresImage} ready (pg_isready)`,
      () =>
        docker(['exec', postgres, 'pg_isready', '-h', '127.0.0.1', '-p', String(ports.postgres)], {
          allowFailure: true,
        }).status === 0,
      60_000,
    );
    await waitFor(
      `${natsImage} ready`,
      async () => (await httpStatus(`http://127.0.0.1:${ports.natsMonitor}/healthz?js-enabled-only=true`)) === 200,
      30_000,
    );
    // One database and owner per app, as compose gives each service its own.
    for (const app of APPS) {
      const name = app.replaceAll('-', '_');
      docker([
        'exec',
        '-e',
        `PGPASSWORD=${dbPassword}`,
        postgres,
        'psql',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        '127.0.0.1',
        '-p',
        String(ports.postgres),
        '-U',
        'postgres',
        '-c',
        `CREATE ROLE ${name} LOGIN PASSWORD '${dbPassword}'`,
        '-c',
        `CREATE DATABASE ${name} OWNER ${name}`,
      ]);
    }
  });

  after(() => {
    for (const name of started) docker(['rm', '-f', '-v', name], { allowFailure: true });
  });

  for (const app of APPS) {
    it(`${app}: the image runs as uid 1000 and adds less than ${ADDED_MB_TARGET} MB to its base`, () => {
      const image = imageName(app, TAG);
      const user = docker(['image', 'inspect', '--format', '{{.Config.User}}', image]).stdout.trim();
      assert.equal(user, 'node');
      const uid = docker(['run', '--rm', '--network', 'host', ...HARDENED, image, 'id', '-u']).stdout.trim();
      assert.equal(uid, '1000');
      const { sizeMb, addedMb } = imageSizes(app, TAG, NODE_IMAGE);
      console.log(`# ${image}: ${sizeMb.toFixed(1)} MB, ${addedMb.toFixed(1)} MB on top of ${NODE_IMAGE}`);
      assert.ok(addedMb < ADDED_MB_TARGET, `${image} adds ${addedMb.toFixed(1)} MB`);
    });

    it(`${app}: its migration job applies all ${migrationCount(app)} migrations, then finds none to apply`, () => {
      const image = imageName(app, TAG);
      const job = () => {
        const result = docker(
          [
            'run',
            '--rm',
            '--network',
            'host',
            ...HARDENED,
            '-e',
            `${databaseVariable(app)}=${databaseUrl(app)}`,
            image,
            'node',
            '/app/migrate.cjs',
          ],
          { allowFailure: true, timeout: 180_000 },
        );
        assert.equal(result.status, 0, `migrate.cjs exited with ${result.status}: ${result.stderr}${result.stdout}`);
        return JSON.parse(result.stdout.trim().split('\n').at(-1));
      };
      const first = job();
      assert.equal(first.msg, 'migrations applied');
      assert.equal(first.applied.length, migrationCount(app));
      const second = job();
      assert.equal(second.msg, 'migrations: up to date');
      assert.deepEqual(second.applied, []);
    });
  }

  it('the five services, each from its image, answer /readyz with 200 and run as uid 1000', async () => {
    const common = {
      NODE_ENV: 'production',
      NATS_URL: `nats://127.0.0.1:${ports.nats}`,
      NATS_SUBJECT_PREFIX: 'imgcheck',
      LOG_LEVEL: 'warn',
    };
    const specific = {
      gateway: {
        ADMIN_TOKEN: randomBytes(24).toString('hex'),
        ADMIN_HOST: '127.0.0.1',
        CONSOLE_URL: 'https://switchboard.example.com/console/',
      },
      'numbers-billing': { SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
      'calls-media': {},
      lostfound: {},
      'webhook-dispatcher': {},
    };
    const readyUrls = {};
    for (const app of APPS) {
      const portEnv = {};
      if (app === 'gateway') {
        portEnv.PORT = String((ports[app] = await freePort()));
        portEnv.ADMIN_PORT = String(await freePort());
      } else {
        portEnv.HEALTH_PORT = String((ports[app] = await freePort()));
      }
      readyUrls[app] = `http://127.0.0.1:${ports[app]}/readyz`;
      const env = { ...common, ...specific[app], ...portEnv, [databaseVariable(app)]: databaseUrl(app) };
      startContainer(app, [...HARDENED, '--tmpfs', '/data:uid=1000,gid=1000', ...envFlags(env), imageName(app, TAG)]);
    }
    for (const app of APPS) {
      const name = `${RUN_ID}-${app}`;
      await waitFor(
        `${app} /readyz 200`,
        async () => {
          const state = docker(['inspect', '--format', '{{.State.Status}}', name]).stdout.trim();
          if (state !== 'running') {
            // The services log to stdout (pino), Node's own crashes go to stderr: both, last lines.
            const logs = docker(['logs', '--tail', '20', name], { allowFailure: true });
            throw new Error(`container ${state}: ${logs.stdout}${logs.stderr}`);
          }
          return (await httpStatus(readyUrls[app])) === 200;
        },
        READY_WITHIN_MS,
      );
      // The service process itself, as the host's kernel sees it: not just the image's declared user.
      const pid = docker(['inspect', '--format', '{{.State.Pid}}', name]).stdout.trim();
      const uids = readFileSync(`/proc/${pid}/status`, 'utf8')
        .match(/^Uid:\s+(.+)$/m)[1]
        .split(/\s+/);
      assert.deepEqual(uids, ['1000', '1000', '1000', '1000'], `${app}'s process uids (real, effective, saved, fs)`);
    }
  });

  it('each service stops on SIGTERM with exit code 0 within the grace period', () => {
    // The gateway first, as an orchestrator drains the edge; then the others.
    for (const app of APPS) {
      const name = `${RUN_ID}-${app}`;
      const stopStarted = Date.now();
      docker(['stop', '-t', String(STOP_GRACE_SECONDS), name], { timeout: (STOP_GRACE_SECONDS + 10) * 1000 });
      const seconds = (Date.now() - stopStarted) / 1000;
      const exitCode = docker(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout.trim();
      assert.equal(exitCode, '0', `${app} exited with ${exitCode} after SIGTERM (${seconds.toFixed(1)} s)`);
      assert.ok(seconds < STOP_GRACE_SECONDS, `${app} took ${seconds.toFixed(1)} s to stop`);
    }
  });
});
