#!/usr/bin/env node
// Run by the Dockerfile's app-files stage: copies, from the production node_modules, only the packages one app's
// image loads at run time, with everything they depend on. The service runs from its bundle (ADR 0099), which has
// every other package inlined, so the full production install (about 250 MB) would ship most packages twice.
//   node deploy/docker/runtime-packages.mjs <production node_modules> <workspace root> <out node_modules> <file or dir>...
// What is loaded at run time is read from the files the image runs (the bundle and its chunks, migrate.cjs,
// healthcheck.cjs): every `require("x")` or `import("x")` of a package. A workspace library it loads
// (@switchboard/persistence, for migrate.cjs) is read the same way, all its compiled files (libraries declare no
// dependencies of their own: the root's are hoisted). An npm package brings what its package.json says it needs
// (dependencies, and optional and peer ones where installed). Workspace libraries stay links, as npm made them
// (their dist is copied by the Dockerfile).
// The install is `npm ci --omit=dev`, which keeps every optional package (the platform binaries of native packages,
// such as @node-rs/argon2-linux-x64-gnu) but also the lockfile's `devOptional` ones (the Prisma CLI and TypeScript,
// optional peers of @prisma/client): a package the workspace root's lockfile marks `dev` or `devOptional` is treated
// as not installed, so it never reaches an image.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const [from, root, to, ...entries] = process.argv.slice(2);
if (!from || !root || !to || entries.length === 0) {
  console.error(
    'usage: runtime-packages.mjs <production node_modules> <workspace root> <out node_modules> <file or dir>...',
  );
  process.exit(2);
}
const builtins = new Set(builtinModules);
const lockfile = join(root, 'package-lock.json');
const locked = existsSync(lockfile) ? (JSON.parse(readFileSync(lockfile, 'utf8')).packages ?? {}) : {};
// `require("x")` (also as the bundler renames it, `require$2("x")`, and `require.resolve("x")`), `import("x")`, and
// a require made by `createRequire(...)("x")`: Nest's ClientNats loads @nats-io/transport-node that way, which the
// bundler leaves to run time.
const SPECIFIER =
  /\b(?:require(?:\$\d+|\.resolve)?|import)\(\s*["']([^"'./][^"']*)["']\s*\)|\bcreateRequire\b[^;]{0,200}?\)\(\s*["']([^"'./][^"']*)["']\s*\)/g;
/** npm's rule for a package name (with a subpath after it); anything else in a require() string is not one. */
const PACKAGE = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*(?:\/.*)?$/;

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function jsFiles(path) {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { recursive: true })
    .map((name) => join(path, String(name)))
    .filter((file) => /\.(c|m)?js$/.test(file) && statSync(file).isFile());
}

function requiredPackages(files) {
  const names = new Set();
  for (const file of files) {
    for (const [, called, created] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = called ?? created;
      if (!PACKAGE.test(specifier) || builtins.has(specifier) || builtins.has(packageName(specifier))) continue;
      names.add(packageName(specifier));
    }
  }
  return names;
}

/** Whether the lockfile has the package at `location` only for development (`dev` or `devOptional`). */
function developmentOnly(location) {
  const entry = locked[relative(dirname(from), location)];
  return entry?.dev === true || entry?.devOptional === true;
}

/** Node's lookup from a package's place in the tree: its own node_modules, then each one above it. */
function locate(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json')) || isLink(candidate)) {
      return developmentOnly(candidate) ? undefined : candidate;
    }
    if (relative(dirname(from), dir) === '' || dir === dirname(dir)) return undefined;
  }
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

const copied = new Set();
const pending = [...requiredPackages(entries.flatMap(jsFiles))].map((name) => [name, dirname(from)]);
const missing = [];
while (pending.length > 0) {
  const [name, fromDir] = pending.pop();
  const location = locate(name, fromDir);
  if (!location) {
    missing.push(name);
    continue;
  }
  if (copied.has(location)) continue;
  copied.add(location);
  const target = join(to, relative(from, location));
  mkdirSync(dirname(target), { recursive: true });
  if (isLink(location)) {
    // A workspace library: keep npm's link, and follow what its compiled files load (the link is relative to its
    // place in the workspace root's node_modules, where the library's dist is).
    const link = readlinkSync(location);
    symlinkSync(link, target);
    const real = resolve(root, 'node_modules', dirname(relative(from, location)), link);
    for (const required of requiredPackages(jsFiles(join(real, 'dist')))) pending.push([required, dirname(from)]);
    continue;
  }
  cpSync(location, target, { recursive: true, verbatimSymlinks: true });
  const manifest = JSON.parse(readFileSync(join(location, 'package.json'), 'utf8'));
  const needed = { ...manifest.peerDependencies, ...manifest.optionalDependencies, ...manifest.dependencies };
  for (const dependency of Object.keys(needed)) {
    const found = locate(dependency, location);
    const required = dependency in (manifest.dependencies ?? {});
    if (found) pending.push([dependency, location]);
    else if (required) missing.push(`${dependency} (for ${manifest.name})`);
  }
}
// A package the bundle may load but that is not installed (Nest's optional peers, loaded in a try) is expected;
// a dependency a package declares and that is absent is not, and the image would fail at run time.
const unexpected = missing.filter((entry) => entry.includes(' (for '));
console.log(`runtime packages: ${copied.size} copied; not installed: ${[...new Set(missing)].join(', ') || 'none'}`);
if (unexpected.length > 0) {
  console.error(`declared dependencies missing from ${from}: ${unexpected.join(', ')}`);
  process.exit(1);
}
