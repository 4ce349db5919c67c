#!/usr/bin/env node
// node tools/sdk/esm-entry.mjs <package dir>
// Writes the ES module entry of a package that tsc builds as CommonJS (libs/signing, libs/sdk; docs/adr/0137):
// dist/index.mjs exports, under their own names, what dist/index.js exports, and dist/index.d.mts gives it the same
// types. The code exists once, in the CommonJS build, so `import` and `require` in one program share one copy
// (`instanceof SwitchboardError` holds whichever way it was loaded). The package's `exports` map sends `import` here
// and `require` to dist/index.js. Each package's `build` script and `npm run sdk:pack` run it after `tsc -b`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The names an ES module entry re-exports: the CommonJS module's own exports, less its interop markers. */
export function exportedNames(moduleExports) {
  const names = Object.keys(moduleExports)
    .filter((name) => name !== '__esModule' && name !== 'default')
    .sort();
  const bad = names.filter((name) => !IDENTIFIER.test(name));
  if (bad.length > 0) throw new Error(`cannot re-export ${bad.join(', ')} from an ES module: not identifiers`);
  return names;
}

/** The text of dist/index.mjs and dist/index.d.mts for a package whose CommonJS entry exports `names`. */
export function esmEntry(packageName, names) {
  const header = `// The ES module entry of ${packageName}, written by tools/sdk/esm-entry.mjs: the CommonJS build's exports.\n`;
  const lines = names.map((name) => `  ${name},`).join('\n');
  return {
    js: `${header}import cjs from './index.js';\n\nexport const {\n${lines}\n} = cjs;\n`,
    dts: `${header}export * from './index.js';\n`,
  };
}

/** Writes the entry beside `<dir>/dist/index.js` (only what changed); returns the names it exports. */
export function writeEsmEntry(dir) {
  const packageDir = resolve(dir);
  const { name } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const require = createRequire(join(packageDir, 'package.json'));
  const names = exportedNames(require(join(packageDir, 'dist', 'index.js')));
  const entry = esmEntry(name, names);
  for (const [file, text] of [
    ['index.mjs', entry.js],
    ['index.d.mts', entry.dts],
  ]) {
    const path = join(packageDir, 'dist', file);
    let current;
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      current = undefined;
    }
    if (current !== text) writeFileSync(path, text);
  }
  return names;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node tools/sdk/esm-entry.mjs <package dir>');
    process.exit(2);
  }
  const names = writeEsmEntry(dir);
  console.log(`${join(dir, 'dist', 'index.mjs')}: ${names.length} exports`);
}
