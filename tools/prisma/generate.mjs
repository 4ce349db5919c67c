#!/usr/bin/env node
// node tools/prisma/generate.mjs [app...]
// `prisma generate` for every app with prisma/schema.prisma (the root postinstall runs this): the Prisma client
// and, through the `prisma-kysely` generator, the Kysely table types of the app's hand-written SQL, both into the
// app's git-ignored `src/generated/` (ADR 0070). Offline-safe:
// generation is Wasm, but the CLI insists on a schema engine binary, so PRISMA_SCHEMA_ENGINE_BINARY points at a
// dummy unless already set (migrations never go through the CLI: see tools/prisma/migrate.mjs). No
// prisma.config.ts is needed: the schemas name no URL, and generate needs none.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { appsWithSchema, fail, rel, repoRoot, requireApp, schemaPathOf } from './shared.mjs';

const usage = 'node tools/prisma/generate.mjs [app...]';
const named = process.argv.slice(2);
named.forEach((app) => requireApp(app, usage));
const apps = named.length > 0 ? named : appsWithSchema();
if (apps.length === 0) process.exit(0); // nothing to generate yet: postinstall must not fail

const cli = join(repoRoot, 'node_modules/prisma/build/index.js');
if (!existsSync(cli)) {
  // An install without dev dependencies: the Prisma CLI is not there to run.
  console.warn('tools/prisma/generate.mjs: the prisma CLI is not installed; Prisma clients not generated.');
  process.exit(0);
}

const env = {
  ...process.env,
  // The schemas name generators by their bin (`prisma-kysely`), found here when not run through npm.
  PATH: [join(repoRoot, 'node_modules/.bin'), process.env.PATH].filter(Boolean).join(delimiter),
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || '/bin/true',
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};

function generate(app) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, 'generate', '--schema', schemaPathOf(app)], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => done({ app, ok: false, output: String(error) }));
    child.on('close', (code) => done({ app, ok: code === 0, output }));
  });
}

const results = await Promise.all(apps.map(generate));
for (const { app, ok, output } of results) {
  if (ok) console.log(`prisma generate: ${app} (${rel(schemaPathOf(app))})`);
  else console.error(`prisma generate failed for ${app} (${rel(schemaPathOf(app))}):\n${output.trim()}`);
}
if (results.some((result) => !result.ok)) fail('prisma generate failed.');
