// What `npm start` and `npm test` install before they run anything, so either works first on a fresh clone:
//   1. dependencies: `npm install` when node_modules lacks a package the lockfile names, or holds another version
//      of it (a fresh clone; a pull that changed package-lock.json). Not `npm ci`: it cannot work on these
//      machines (see .ci/run and the README's quick start); `npm install` installs exactly the locked versions.
//   2. database clients: tools/prisma/generate.mjs when an app's generated Prisma client is absent or older than
//      its schema.prisma (npm install's postinstall generates them too; this catches a schema pulled later).
// The decisions are plain functions of what is on disk, so they are unit-tested (install-missing.spec.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** How many missing packages a message names before it says "and N more". */
const NAMED_IN_MESSAGE = 3;

/**
 * Why the dependencies must be installed, or undefined when node_modules holds every locked package.
 * `lockfile` is package-lock.json; `installedVersion(path)` is the version of the package installed at a lockfile
 * path (its package.json's), undefined when there is none. What is on disk is the truth: npm's own record of the
 * last install (node_modules/.package-lock.json) can disagree with it, e.g. where node_modules is shared between
 * work trees. Optional packages are left out: npm skips those built for other platforms.
 */
export function missingDependencies(lockfile, installedVersion) {
  const locked = Object.entries(lockfile.packages ?? {}).filter(
    ([path, entry]) => path.startsWith('node_modules/') && !entry.optional,
  );
  const packages = [];
  for (const [path, entry] of locked) {
    const version = installedVersion(path);
    // A workspace link's version is whatever its own package.json says; only its presence counts.
    if (version === undefined || (!entry.link && version !== entry.version)) {
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      packages.push(entry.link ? name : `${name}@${entry.version}`);
    }
  }
  if (packages.length === 0) return undefined;
  if (packages.length === locked.length) return { reason: 'node_modules holds no install yet', packages };
  const named = packages.slice(0, NAMED_IN_MESSAGE).join(', ');
  const more = packages.length > NAMED_IN_MESSAGE ? ` and ${packages.length - NAMED_IN_MESSAGE} more` : '';
  return { reason: `node_modules lacks ${named}${more} at the locked version`, packages };
}

/** Apps whose generated Prisma client is absent or older than their prisma/schema.prisma. */
export function staleDatabaseClients(root) {
  const appsDir = join(root, 'apps');
  if (!existsSync(appsDir)) return [];
  return readdirSync(appsDir)
    .filter((app) => existsSync(join(appsDir, app, 'prisma', 'schema.prisma')))
    .filter((app) => {
      const client = join(appsDir, app, 'src', 'generated', 'prisma', 'client.ts');
      return (
        !existsSync(client) ||
        statSync(client).mtimeMs < statSync(join(appsDir, app, 'prisma', 'schema.prisma')).mtimeMs
      );
    })
    .sort();
}

/** missingDependencies() for the project at `root`, read from disk (about 900 package.json files: tens of ms). */
export function missingDependenciesAt(root) {
  const lockfile = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return missingDependencies(lockfile, (path) => {
    try {
      return JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8')).version ?? '';
    } catch {
      return undefined;
    }
  });
}

/**
 * Installs what is missing (see the top of this file), saying what and why through `say`. Returns false, having
 * said what failed, when a step fails; the caller stops then.
 */
export function installWhatIsMissing({ root, say, env = process.env }) {
  const run = (what, command, args) => {
    say(`${what}...`);
    const started = Date.now();
    const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
    if (result.status === 0) {
      say(`${what}: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      return true;
    }
    say(`${what} failed (${result.error ? result.error.message : `exit ${result.status ?? result.signal}`}).`);
    return false;
  };
  const dependencies = missingDependenciesAt(root);
  if (dependencies) {
    say(
      `${dependencies.reason}: installing the locked dependencies with npm install (npm ci cannot work here: README, quick start)`,
    );
    if (!run('npm install', 'npm', ['install', '--no-audit', '--no-fund'])) return false;
  }
  const stale = staleDatabaseClients(root);
  if (
    stale.length > 0 &&
    !run(`generating database clients (${stale.join(', ')})`, process.execPath, [
      join(root, 'tools', 'prisma', 'generate.mjs'),
      ...stale,
    ])
  ) {
    return false;
  }
  return true;
}

// `npm test` runs this first (package.json's `pretest`), so a fresh clone's first `npm test` works.
if (import.meta.filename === process.argv[1]) {
  const root = resolve(import.meta.dirname, '..', '..');
  if (!installWhatIsMissing({ root, say: (message) => console.log(`[install] ${message}`) })) process.exit(1);
}
