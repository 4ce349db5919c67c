#!/usr/bin/env node
// npm run sdk:pack [-- --out DIR]
// Builds @switchboard/signing and @switchboard/sdk and packs them, side by side, into DIR (default dist/sdk):
// switchboard-signing-<version>.tgz and switchboard-sdk-<version>.tgz. A project anywhere installs both at once,
// `npm install ./switchboard-signing-<version>.tgz ./switchboard-sdk-<version>.tgz`: the SDK's dependency on
// `@switchboard/signing` (a semver range, as if published) is met by the signing tarball, and openapi-fetch comes
// from the registry. Each tarball holds the CommonJS build with its types, the ES module entry (tools/sdk/esm-entry.mjs),
// the sources the source maps point to, the README and the MIT licence; no specs, no tsconfig (docs/adr/0137).
// test/e2e/sdk-packages.e2e-spec.ts packs them, installs them outside the workspace and runs the documented examples.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { withBuildLockSync } from '../dev/build-lock.mjs';
import { writeEsmEntry } from './esm-entry.mjs';

const root = resolve(import.meta.dirname, '..', '..');
/** In dependency order: signing first, the SDK depends on it. */
export const PACKAGES = ['libs/signing', 'libs/sdk'];

/** The source a file of dist/ was compiled from (`dist/a/b.js`, `.js.map`, `.d.ts` → `src/a/b.ts`); null for the ES module entry. */
export function sourceOf(distPath) {
  if (distPath === 'index.mjs' || distPath === 'index.d.mts') return null;
  const stem = distPath.replace(/(\.d\.ts|\.js\.map|\.js)$/, '');
  return stem === distPath ? undefined : `${stem}.ts`;
}

/** Removes what dist/ still holds from a source file since deleted or renamed, so it is not packed. */
function removeOrphans(packageDir) {
  const dist = join(packageDir, 'dist');
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  for (const file of walk(dist)) {
    const source = sourceOf(relative(dist, file));
    if (source === null) continue;
    if (source === undefined || !existsSync(join(packageDir, 'src', source))) rmSync(file);
  }
}

/** Builds and packs both packages into `out`; returns the tarballs' absolute paths, signing first. */
export function packSdk({ out = join(root, 'dist', 'sdk'), log = console.log } = {}) {
  // The same dist folders `npm start` and the tests build: one build of the checkout at a time (build-lock.mjs).
  withBuildLockSync(
    () => {
      execFileSync(
        process.execPath,
        [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'libs/sdk/tsconfig.build.json'],
        { cwd: root, stdio: 'inherit' },
      );
      for (const pkg of PACKAGES) {
        removeOrphans(join(root, pkg));
        writeEsmEntry(join(root, pkg));
      }
    },
    { root, say: log },
  );
  mkdirSync(out, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = JSON.parse(
    execFileSync(
      npm,
      ['pack', '--json', '--pack-destination', out, ...PACKAGES.flatMap((pkg) => ['--workspace', pkg])],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  const tarballs = packed.map((entry) => join(out, entry.filename));
  for (const [i, tarball] of tarballs.entries()) {
    log(
      `packed ${packed[i].name}@${packed[i].version}: ${relative(process.cwd(), tarball)} (${packed[i].entryCount} files)`,
    );
  }
  return tarballs;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--out');
  const out = at === -1 ? undefined : resolve(process.argv[at + 1] ?? '');
  const tarballs = packSdk({ out });
  console.log(`\nInstall both together, in any project:\n  npm install ${tarballs.join(' ')}`);
}
