#!/usr/bin/env node
// node tools/prisma/create-migration.mjs <app> <name>
// Diffs apps/<app>/prisma/migrations (replayed into an in-memory PGlite) against apps/<app>/prisma/schema.prisma
// and writes prisma/migrations/<UTC timestamp>_<name>/migration.sql (+ migration_lock.toml). Nothing is written
// when the schema has no changes. Works offline; no database is touched.
import { existsSync } from 'node:fs';
import { fail, loadPersistence, migrationsDirOf, rel, requireApp, schemaPathOf } from './shared.mjs';

const usage = 'node tools/prisma/create-migration.mjs <app> <name>';
const [app, name, ...extra] = process.argv.slice(2);
requireApp(app, usage);
if (!name || extra.length > 0) fail(`usage: ${usage}`);
const schemaPath = schemaPathOf(app);
if (!existsSync(schemaPath)) fail(`${app} has no ${rel(schemaPath)}`);

const { createMigration, migrationSlug } = loadPersistence();
try {
  migrationSlug(name);
  const created = await createMigration({ appName: app, schemaPath, migrationsDir: migrationsDirOf(app), name });
  if (created === null) {
    console.log(`${app}: the schema has no changes since the last migration; nothing written.`);
  } else {
    console.log(`${app}: wrote ${rel(created.directory)}/migration.sql\n\n${created.sql.trim()}`);
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
