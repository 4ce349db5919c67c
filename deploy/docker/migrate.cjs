#!/usr/bin/env node
// The migration step of a release: applies the committed migrations baked into this image to the app's
// PostgreSQL (<APP>_DATABASE_URL), then exits. Run by the Kubernetes Job deploy/k8s/jobs/<app>-migrate.yaml and by
// `docker compose run --rm <app> node /app/migrate.cjs`. The services also apply pending migrations when they
// start (under an advisory lock); running this first surfaces a failing migration before any pod is replaced.
// It is tools/prisma/migrate.mjs for the image: that script compiles libs/persistence with TypeScript first,
// and the image carries only the compiled library.
'use strict';
const path = require('node:path');
const { applyMigrations, databaseUrlFor, databaseUrlVariable, redactUrl } = require('@switchboard/persistence');

async function main() {
  const app = process.env.APP_NAME;
  if (!app) throw new Error('APP_NAME is not set (the image sets it to the app it was built for)');
  const variable = databaseUrlVariable(app);
  const url = databaseUrlFor(app, process.env);
  // Without a URL the library would migrate an embedded PGlite inside this container and report success.
  if (!url) throw new Error(`${variable} is not set: nothing to migrate`);
  const migrationsDir = path.join(__dirname, 'apps', app, 'prisma', 'migrations');
  const started = Date.now();
  const { appliedMigrationNames } = await applyMigrations({ appName: app, migrationsDir });
  console.log(
    JSON.stringify({
      level: 'info',
      service: app,
      msg: appliedMigrationNames.length === 0 ? 'migrations: up to date' : 'migrations applied',
      applied: appliedMigrationNames,
      database: redactUrl(url),
      duration_ms: Date.now() - started,
    }),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(
      JSON.stringify({
        level: 'fatal',
        service: process.env.APP_NAME,
        msg: 'migrations failed',
        err: String(error?.message ?? error),
      }),
    );
    process.exit(1);
  },
);
