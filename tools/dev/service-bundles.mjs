#!/usr/bin/env node
// Each service as one file (docs/adr/0099-how-a-service-runs.md): rolldown bundles a service's compiled entry,
// apps/<app>/dist/main.js, with the libraries and packages it requires into apps/<app>/dist/main.bundle.js (the
// packages it loads on demand as chunks in apps/<app>/dist/chunks/). A service loads one file instead of ~1,750
// modules: 40% less CPU to start and 15-40 MiB less resident. `npm run build`, `npm start`, the benchmarks and the
// image's build run it after `tsc -b`; the service-bundles test starts the five bundles.
//   node tools/dev/service-bundles.mjs             bundle every service now
//   node tools/dev/service-bundles.mjs --if-stale  bundle only the services whose inputs changed
//   node tools/dev/service-bundles.mjs gateway     bundle the services named (each app's Nx `build` target)
// Whether a bundle is stale is a plain function of what is on disk (its inputs' sizes and times, recorded beside
// it), so it is unit-tested (service-bundles.spec.ts).
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';

export const SERVICES = /** @type {const} */ ([
  'numbers-billing',
  'calls-media',
  'lostfound',
  'webhook-dispatcher',
  'gateway',
]);
export const BUNDLE_FILE = 'main.bundle.js';
/** Beside the bundle: every file it was made from, with its size and time, to tell when it is stale. */
export const INPUTS_FILE = 'main.bundle.inputs.json';

/**
 * Packages left to Node's `require` at run time, from node_modules, each for a reason that bundling would break:
 * - their own files read by path or loaded as native or WebAssembly code: Prisma's query compiler and schema engine,
 *   PGlite and its adapter, argon2's addon, pino's transport workers (thread-stream);
 * - patched by OpenTelemetry when required (ADR 0117): `pg` and `pg-pool`, whose spans an OTLP endpoint turns on;
 * - Nest's optional peers that are not installed (websockets, express, view): loaded in a `try`, absent at run time.
 *   `@nestjs/microservices` is installed and bundled: left to `require`, it would load a second `@nestjs/core` and
 *   `@nestjs/common` from node_modules beside the bundled ones (docs/adr/0133).
 * Node's built-in modules are never bundled.
 */
export const EXTERNAL_PACKAGES = [
  '@prisma/client',
  '@prisma/schema-engine-wasm',
  '@electric-sql/pglite',
  'pglite-prisma-adapter',
  '@node-rs/argon2',
  'pino',
  'thread-stream',
  'pg',
  'pg-pool',
  '@nestjs/websockets',
  '@nestjs/platform-express',
  '@fastify/view',
];

const builtins = new Set(builtinModules);

/** True for an import specifier left to `require` at run time (a built-in, or one of EXTERNAL_PACKAGES). */
export function isExternal(specifier) {
  if (specifier.startsWith('node:') || builtins.has(specifier)) return true;
  return EXTERNAL_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** Prisma's query compiler as base64 text, which each Prisma client imports once to compile its WebAssembly. */
export const QUERY_COMPILER_WASM =
  /^@prisma\/client\/runtime\/query_compiler_(small|fast)_bg\.[a-z]+\.wasm-base64\.js$/;

/**
 * The base64 text of Prisma's query compiler (2.3 MB) read from its file when the client asks for it, not imported:
 * an imported module stays in Node's module cache with its source, so a service kept the text twice, 4.4 MiB for its
 * whole life, to compile the WebAssembly once at start. The file is `const wasm = "<base64>"; module.exports = { wasm }`;
 * anything else fails the client's first query (and the bundles' test).
 */
function queryCompilerReadWhenAsked() {
  const PREFIX = '\0switchboard-query-compiler:';
  return {
    name: 'switchboard-query-compiler-read-when-asked',
    resolveId(specifier) {
      return QUERY_COMPILER_WASM.test(specifier) ? PREFIX + specifier : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const specifier = JSON.stringify(id.slice(PREFIX.length));
      return `const { readFileSync } = require('node:fs');
module.exports = {
  get wasm() {
    const text = readFileSync(require.resolve(${specifier}), 'utf8');
    const start = text.indexOf('"') + 1;
    const end = text.indexOf('"', start);
    if (start === 0 || end < 0) throw new Error('unexpected contents in ' + ${specifier});
    return text.slice(start, end);
  },
};
`;
    },
  };
}

/** Nest's two logger modules, which build a date formatter when they load. */
export const NEST_DATE_FORMATTER_MODULES = /\/@nestjs\/common\/services\/(console-logger|logger)\.service\.js$/;

/**
 * A Nest logger module's date formatter built on its first use instead of when the module loads. Building an
 * `Intl.DateTimeFormat` reads about 5 MiB of Node's ICU data into memory (resident for the process's life) and takes
 * 20-30 ms; the services log through their own logger, so Nest's formats a date rarely or never. Nest calls only
 * `format` on it. Throws when the module no longer builds it as expected (a Nest upgrade): the build stops rather
 * than bundle a module this rule did not understand.
 */
export function nestDateFormatterOnFirstUse(code, id) {
  const construction = 'const dateTimeFormatter = new Intl.DateTimeFormat(';
  const uses = code.split('dateTimeFormatter.').length - 1;
  const formats = code.split('dateTimeFormatter.format(').length - 1;
  if (code.split(construction).length !== 2 || uses !== formats)
    throw new Error(`${id}: Nest's date formatter is no longer built as service-bundles.mjs expects`);
  return code.replace(
    construction,
    'const dateTimeFormatter = ((...args) => { let built; return { format: (date) => (built ??= new Intl.DateTimeFormat(...args)).format(date) }; })(',
  );
}

function nestDateFormatterBuiltOnFirstUse() {
  return {
    name: 'switchboard-nest-date-formatter-on-first-use',
    transform(code, id) {
      return NEST_DATE_FORMATTER_MODULES.test(id) ? nestDateFormatterOnFirstUse(code, id) : null;
    },
  };
}

/** apps/<app>/dist/main.bundle.js under `root`. */
export function bundlePath(root, app) {
  return join(root, 'apps', app, 'dist', BUNDLE_FILE);
}

function fileState(path) {
  try {
    const stat = statSync(path);
    return [stat.size, Math.round(stat.mtimeMs)];
  } catch {
    return null;
  }
}

/** Why the service's bundle must be made again, or undefined when it is as new as every file it was made from. */
export function bundleStaleness(root, app) {
  const dist = join(root, 'apps', app, 'dist');
  if (!existsSync(join(dist, BUNDLE_FILE))) return `apps/${app}/dist/${BUNDLE_FILE} is not built yet`;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(join(dist, INPUTS_FILE), 'utf8'));
  } catch {
    return `apps/${app}/dist/${INPUTS_FILE} is missing or unreadable`;
  }
  if (!recorded || typeof recorded.inputs !== 'object' || recorded.inputs === null)
    return `apps/${app}/dist/${INPUTS_FILE} lists no inputs`;
  for (const [file, state] of Object.entries(recorded.inputs)) {
    const now = fileState(join(root, file));
    if (!now || now[0] !== state[0] || now[1] !== state[1]) return `${file} has changed since apps/${app} was bundled`;
  }
  return undefined;
}

/** Bundles one service from its compiled dist (which `tsc -b` must have written) and records its inputs. */
export async function bundleService({ root, app }) {
  const { build } = await import('rolldown');
  const dist = join(root, 'apps', app, 'dist');
  // Chunk names carry a hash of their contents: the last build's would stay beside the new ones.
  rmSync(join(dist, 'chunks'), { recursive: true, force: true });
  const output = await build({
    input: join(dist, 'main.js'),
    cwd: root,
    platform: 'node',
    external: (specifier) => !QUERY_COMPILER_WASM.test(specifier) && isExternal(specifier),
    plugins: [queryCompilerReadWhenAsked(), nestDateFormatterBuiltOnFirstUse()],
    logLevel: 'silent',
    write: true,
    output: {
      dir: dist,
      format: 'cjs',
      entryFileNames: BUNDLE_FILE,
      chunkFileNames: 'chunks/[name]-[hash].js',
      // Not minified, and names kept: stack traces and logs name the functions and classes they did before.
      minify: false,
      keepNames: true,
      // V8 keeps a script's source for as long as the process runs (it compiles functions lazily from it): one
      // non-ASCII character would make it a two-byte string of twice the size, and comments are a fifth of its bytes.
      // No comment stays (a licence comment may hold any character): the packages' licences ship with them in
      // node_modules, beside the bundle, wherever it runs.
      charset: 'ascii',
      comments: false,
      // A map to the compiled files, for NODE_OPTIONS=--enable-source-maps.
      sourcemap: true,
    },
  });
  const inputs = {};
  // The bundler's own version and this file's rules are inputs too: a change to either makes every bundle stale.
  for (const file of [import.meta.filename, join(root, 'node_modules', 'rolldown', 'package.json')])
    inputs[relative(root, file)] = fileState(file);
  for (const chunk of output.output) {
    if (chunk.type !== 'chunk') continue;
    for (const id of chunk.moduleIds) {
      // Rolldown's own runtime helpers have ids that are no file.
      if (!id.startsWith('/')) continue;
      const state = fileState(id);
      if (state) inputs[relative(root, id)] = state;
    }
  }
  writeFileSync(join(dist, INPUTS_FILE), JSON.stringify({ app, inputs }) + '\n');
}

/** Bundles the services whose bundle is stale (or all, with `force`); true when every bundle is up to date after. */
export async function bundleServices({
  root,
  apps = SERVICES,
  force = false,
  say = (message) => console.log(message),
}) {
  const stale = apps.flatMap((app) => {
    const why = force ? 'bundling' : bundleStaleness(root, app);
    return why ? [{ app, why }] : [];
  });
  if (stale.length === 0) return true;
  if (!force) say(`${stale[0].why}${stale.length > 1 ? ` (and ${stale.length - 1} more)` : ''}.`);
  const started = Date.now();
  say(`bundling ${stale.map(({ app }) => app).join(', ')} (rolldown)...`);
  try {
    for (const { app } of stale) await bundleService({ root, app });
  } catch (error) {
    say(`bundling failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  say(`bundled in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..', '..');
  // Not a top-level await: the tests load this file as CommonJS.
  const named = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const unknown = named.filter((app) => !SERVICES.includes(app));
  if (unknown.length > 0) {
    console.error(`not a service: ${unknown.join(', ')} (the services: ${SERVICES.join(', ')})`);
    process.exit(2);
  }
  void bundleServices({
    root,
    apps: named.length > 0 ? named : SERVICES,
    force: !process.argv.includes('--if-stale'),
  }).then((ok) => process.exit(ok ? 0 : 1));
}
