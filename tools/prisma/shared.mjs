// Helpers shared by the tools/prisma scripts. Run them from anywhere; paths resolve from the repo root.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLockSync } from '../dev/build-lock.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const appsDir = join(repoRoot, 'apps');

export const schemaPathOf = (app) => join(appsDir, app, 'prisma', 'schema.prisma');
export const migrationsDirOf = (app) => join(appsDir, app, 'prisma', 'migrations');
export const rel = (path) => relative(process.cwd(), path) || '.';

/** Every app folder under apps/, sorted. */
export function allApps() {
  if (!existsSync(appsDir)) return [];
  return readdirSync(appsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Apps that have a prisma/schema.prisma. */
export function appsWithSchema() {
  return allApps().filter((app) => existsSync(schemaPathOf(app)));
}

/** Fails with a usage message unless `app` is a folder under apps/. */
export function requireApp(app, usage) {
  if (!app) fail(`usage: ${usage}`);
  if (!allApps().includes(app)) fail(`unknown app "${app}"; apps: ${allApps().join(', ') || '(none)'}`);
  return app;
}

export function fail(message) {
  console.error(message);
  process.exit(1);
}

/**
 * @switchboard/persistence, compiled: these scripts use the library the services use rather than a copy.
 * `tsc -b` is incremental, so this costs well under a second when the build is current.
 */
export function loadPersistence() {
  const project = join(repoRoot, 'libs/persistence/tsconfig.build.json');
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  // Under the checkout's build lock: npm start and the tests may be building the same folders (build-lock.mjs).
  const build = withBuildLockSync(
    () => spawnSync(process.execPath, [tsc, '-b', project], { cwd: repoRoot, encoding: 'utf8' }),
    { root: repoRoot, say: (message) => console.error(message) },
  );
  if (build.status !== 0) {
    fail(`building libs/persistence failed:\n${build.stdout}${build.stderr}`);
  }
  return createRequire(import.meta.url)('@switchboard/persistence');
}

/** Runs `work(app)` for each app in turn; prints errors, returns whether every app succeeded. */
export async function forEachApp(apps, work) {
  let ok = true;
  for (const app of apps) {
    try {
      await work(app);
    } catch (error) {
      ok = false;
      console.error(error instanceof Error ? error.message : String(error));
    }
  }
  return ok;
}
