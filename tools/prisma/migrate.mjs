#!/usr/bin/env node
// node tools/prisma/migrate.mjs [app]
// Applies committed migrations to each app's configured database: <APP>_DATABASE_URL when set, else the
// embedded PGlite in DATA_DIR/<app> (DATA_DIR defaults to .data, relative to the working directory).
import { existsSync } from 'node:fs';
import { allApps, fail, forEachApp, loadPersistence, migrationsDirOf, rel, requireApp } from './shared.mjs';

const usage = 'node tools/prisma/migrate.mjs [app]';
const args = process.argv.slice(2);
if (args.length > 1) fail(`usage: ${usage}`);
const apps =
  args.length === 1 ? [requireApp(args[0], usage)] : allApps().filter((app) => existsSync(migrationsDirOf(app)));
if (apps.length === 0) {
  console.log('No app has prisma/migrations yet; nothing to apply.');
  process.exit(0);
}

const { applyMigrations } = loadPersistence();
const ok = await forEachApp(apps, async (app) => {
  const { appliedMigrationNames, database } = await applyMigrations({
    appName: app,
    migrationsDir: migrationsDirOf(app),
  });
  const what = appliedMigrationNames.length === 0 ? 'up to date' : `applied ${appliedMigrationNames.join(', ')}`;
  console.log(`${app}: ${what} (${database}, from ${rel(migrationsDirOf(app))})`);
});
if (!ok) process.exit(1);
