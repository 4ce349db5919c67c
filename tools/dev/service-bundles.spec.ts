import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import {
  BUNDLE_FILE,
  bundleStaleness,
  INPUTS_FILE,
  isExternal,
  NEST_DATE_FORMATTER_MODULES,
  nestDateFormatterOnFirstUse,
  QUERY_COMPILER_WASM,
  SERVICES,
} from './service-bundles.mjs';

describe('what a service bundle leaves to require()', () => {
  it.each([
    'node:fs',
    'fs',
    'http',
    'pg',
    'pg-pool',
    '@prisma/client',
    '@prisma/client/runtime/query_compiler_small_bg.postgresql.wasm-base64.js',
    '@prisma/schema-engine-wasm/schema_engine_bg',
    '@electric-sql/pglite',
    '@node-rs/argon2',
    'pino',
    '@nestjs/websockets',
  ])('leaves %s', (specifier) => {
    expect(isExternal(specifier)).toBe(true);
  });

  it.each([
    '@nestjs/core',
    '@nestjs/microservices',
    'pg-protocol',
    'pgx',
    'pino-std-serializers',
    'kysely',
    '../generated/prisma/client',
  ])('bundles %s', (specifier) => {
    expect(isExternal(specifier)).toBe(false);
  });
});

describe("Prisma's query compiler in a bundle", () => {
  // The bundles read the compiler's base64 text from its file when a client asks for it (not kept in memory): each
  // generated client must import it by a name the bundler recognises, or the text would be kept again, silently.
  it.each(SERVICES)('is the one %s imports, read from its file when asked', (app) => {
    const client = readFileSync(
      join(__dirname, '..', '..', 'apps', app, 'src', 'generated', 'prisma', 'internal', 'class.ts'),
      'utf8',
    );
    const imported = [...client.matchAll(/import\("([^"]+wasm-base64[^"]*)"\)/g)].map((match) => match[1]);
    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatch(QUERY_COMPILER_WASM);
  });
});

describe("Nest's date formatter in a bundle", () => {
  const installed = (name: string) =>
    join(__dirname, '..', '..', 'node_modules', '@nestjs', 'common', 'services', `${name}.service.js`);

  /** Runs `code` as a module with an `Intl` that counts the formatters built; returns its exports and the count. */
  function load(code: string) {
    const built = { count: 0 };
    const CountingDateTimeFormat = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      built.count += 1;
      return new Intl.DateTimeFormat(...args);
    };
    const module = { exports: {} as () => string };
    runInNewContext(code, { module, Intl: { DateTimeFormat: CountingDateTimeFormat } });
    return { format: module.exports, built };
  }

  const nestLike = `const dateTimeFormatter = new Intl.DateTimeFormat(undefined, { year: 'numeric', timeZone: 'UTC' });
module.exports = () => dateTimeFormatter.format(0);`;

  it('is built on its first use, once, and formats as before', () => {
    const { format, built } = load(nestDateFormatterOnFirstUse(nestLike, 'logger.service.js'));
    expect(built.count).toBe(0);
    expect(format()).toBe('1970');
    expect(format()).toBe('1970');
    expect(built.count).toBe(1);
    expect(load(nestLike).built.count).toBe(1);
  });

  it.each(['console-logger', 'logger'])("applies to the installed Nest's %s module", (name) => {
    expect(installed(name)).toMatch(NEST_DATE_FORMATTER_MODULES);
    const code = nestDateFormatterOnFirstUse(readFileSync(installed(name), 'utf8'), name);
    expect(code).not.toContain('const dateTimeFormatter = new Intl.DateTimeFormat(');
  });

  it('stops the build when the module builds or uses it otherwise (a Nest upgrade)', () => {
    const otherUse = `${nestLike}\nmodule.exports.parts = () => dateTimeFormatter.formatToParts(0);`;
    expect(() => nestDateFormatterOnFirstUse(otherUse, 'logger.service.js')).toThrow(
      "logger.service.js: Nest's date formatter is no longer built as service-bundles.mjs expects",
    );
    expect(() => nestDateFormatterOnFirstUse('module.exports = 1;', 'logger.service.js')).toThrow(/no longer built/);
  });
});

describe('when a service bundle is stale', () => {
  let root: string;
  const dist = () => join(root, 'apps', 'lostfound', 'dist');
  const input = (name: string) => join(root, 'apps', 'lostfound', 'dist', name);
  const record = (inputs: Record<string, [number, number]>) =>
    writeFileSync(join(dist(), INPUTS_FILE), JSON.stringify({ app: 'lostfound', inputs }));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sb-bundles-'));
    mkdirSync(dist(), { recursive: true });
    writeFileSync(input('main.js'), 'require("./a")');
    utimesSync(input('main.js'), 1_700_000_000, 1_700_000_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is stale before its first build (a fresh clone)', () => {
    expect(bundleStaleness(root, 'lostfound')).toBe(`apps/lostfound/dist/${BUNDLE_FILE} is not built yet`);
  });

  it('is stale without the record of its inputs (or with an unreadable one)', () => {
    writeFileSync(input(BUNDLE_FILE), 'bundle');
    expect(bundleStaleness(root, 'lostfound')).toBe(`apps/lostfound/dist/${INPUTS_FILE} is missing or unreadable`);
    writeFileSync(join(dist(), INPUTS_FILE), '{"inputs":');
    expect(bundleStaleness(root, 'lostfound')).toBe(`apps/lostfound/dist/${INPUTS_FILE} is missing or unreadable`);
    writeFileSync(join(dist(), INPUTS_FILE), '{"app":"lostfound"}');
    expect(bundleStaleness(root, 'lostfound')).toBe(`apps/lostfound/dist/${INPUTS_FILE} lists no inputs`);
  });

  it('is up to date while every input has the size and time it had', () => {
    writeFileSync(input(BUNDLE_FILE), 'bundle');
    record({ 'apps/lostfound/dist/main.js': [14, 1_700_000_000_000] });
    expect(bundleStaleness(root, 'lostfound')).toBeUndefined();
  });

  it('is stale when an input changed, even to the same size, or is gone', () => {
    writeFileSync(input(BUNDLE_FILE), 'bundle');
    record({ 'apps/lostfound/dist/main.js': [14, 1_700_000_000_000] });
    utimesSync(input('main.js'), 1_700_000_001, 1_700_000_001); // rebuilt by tsc, same size
    expect(bundleStaleness(root, 'lostfound')).toBe(
      'apps/lostfound/dist/main.js has changed since apps/lostfound was bundled',
    );
    record({ 'apps/lostfound/dist/main.js': [15, 1_700_000_001_000] }); // the same time, another size
    expect(bundleStaleness(root, 'lostfound')).toBe(
      'apps/lostfound/dist/main.js has changed since apps/lostfound was bundled',
    );
    record({ 'apps/lostfound/dist/gone.js': [1, 1_700_000_000_000] });
    expect(bundleStaleness(root, 'lostfound')).toBe(
      'apps/lostfound/dist/gone.js has changed since apps/lostfound was bundled',
    );
  });
});
