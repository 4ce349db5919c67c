#!/usr/bin/env node
// node tools/prisma/check-migrations.mjs [app...]
// Drift check for CI: for every app with a schema (or the named ones), the committed migrations replayed into
// an in-memory PGlite must produce exactly the schema. Exits 1, printing the missing SQL, when they differ.
import {
  appsWithSchema,
  fail,
  forEachApp,
  loadPersistence,
  migrationsDirOf,
  rel,
  requireApp,
  schemaPathOf,
} from './shared.mjs';

const usage = 'node tools/prisma/check-migrations.mjs [app...]';
const named = process.argv.slice(2);
named.forEach((app) => requireApp(app, usage));
const apps = named.length > 0 ? named : appsWithSchema();
if (apps.length === 0) {
  console.log('No app has a prisma/schema.prisma yet; nothing to check.');
  process.exit(0);
}

const { checkMigrations } = loadPersistence();
let drifted = 0;
const ok = await forEachApp(apps, async (app) => {
  const result = await checkMigrations({
    appName: app,
    schemaPath: schemaPathOf(app),
    migrationsDir: migrationsDirOf(app),
  });
  if (result.inSync) {
    console.log(`ok    ${app}: ${rel(migrationsDirOf(app))} matches ${rel(schemaPathOf(app))}`);
  } else {
    drifted += 1;
    console.error(
      `DRIFT ${app}: ${rel(schemaPathOf(app))} has changes that no migration makes. Missing SQL:\n\n` +
        `${result.missingSql.trim().replace(/^/gm, '    ')}\n\n` +
        `      Create the migration with: npm run migrate:create -- ${app} <name>\n`,
    );
  }
});
if (!ok || drifted > 0) {
  fail(`Migration check failed: ${drifted} app(s) drifted${ok ? '' : ', some could not be checked'}.`);
}
