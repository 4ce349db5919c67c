#!/usr/bin/env node
// node tools/docs/env-tables.mjs [--write]
// Each service's README lists its variables between the markers below; the table is generated from the variable
// declarations in apps/<app>/src/config/variables.ts (the defaults its config module uses), with the variables its
// libraries read. Without --write it checks and fails naming the stale READMEs (`npm test`:
// tools/docs/env-tables.spec.ts); with --write it rewrites them.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

export const BEGIN =
  '<!-- env-table: generated from src/config/variables.ts by `node tools/docs/env-tables.mjs --write` -->';
export const END = '<!-- /env-table -->';

/** Each service: its README and the export of its variables.ts listing every variable it reads. */
export const SERVICES = [
  { app: 'gateway', list: 'gatewayVariables' },
  { app: 'numbers-billing', list: 'numbersBillingVariables' },
  { app: 'calls-media', list: 'callsMediaVariables' },
  { app: 'lostfound', list: 'lostfoundVariables' },
  { app: 'webhook-dispatcher', list: 'webhookDispatcherVariables' },
];

/** Every service's README as it should be: `{ file, current, expected }`. */
export function envTables() {
  require(join(root, 'libs/testing/src/ts-register.cjs'));
  const { renderEnvTable } = require(join(root, 'libs/service-runtime/src/env-variables.ts'));
  return SERVICES.map(({ app, list }) => {
    const file = join(root, 'apps', app, 'README.md');
    const current = readFileSync(file, 'utf8');
    const variables = require(join(root, 'apps', app, 'src/config/variables.ts'))[list];
    const start = current.indexOf(BEGIN);
    const end = current.indexOf(END);
    if (start < 0 || end < start) throw new Error(`apps/${app}/README.md has no ${BEGIN} ... ${END} markers`);
    const expected = `${current.slice(0, start)}${BEGIN}\n${renderEnvTable(variables)}\n${current.slice(end)}`;
    return { file: `apps/${app}/README.md`, current, expected };
  });
}

if (process.argv[1] === import.meta.filename) {
  const write = process.argv.includes('--write');
  let stale = 0;
  for (const { file, current, expected } of envTables()) {
    if (current === expected) continue;
    if (write) {
      writeFileSync(join(root, file), expected);
      console.log(`wrote ${file}`);
    } else {
      stale += 1;
      console.error(`${file}: its variable table is stale; run \`node tools/docs/env-tables.mjs --write\``);
    }
  }
  process.exit(stale === 0 ? 0 : 1);
}
