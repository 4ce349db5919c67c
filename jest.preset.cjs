// The one place the four kinds of test are defined (docs/testing.md). Each Nx project's jest.config.cjs asks for the
// kinds it has; @nx/jest/plugin infers the project's `test` target from that file (nx.json), so `nx run-many -t test`
// runs every kind of every project, cached on the inputs the plugin reads from the config. The root jest.config.js
// is the same four kinds over the whole tree, for a one-off `npx jest <path> --selectProjects <kind>`.
//   *.spec.ts          unit tests beside the code, no I/O
//   *.int-spec.ts      integration tests against real PostgreSQL and NATS (own databases and subject prefix)
//   *.e2e-spec.ts      end-to-end: the five services booted, driven over HTTP
//   *.browser-spec.ts  the web console (apps/console, built) in Chromium against the booted system
// Nest 12 and a few dependencies ship ESM only; swc turns them into CommonJS for Jest (notes/stack.md).
const { join } = require('node:path');

const workspaceRoot = __dirname;
const swc = ['@swc/jest', require('./libs/testing/src/swc-options.cjs')];

const esmPackages = [
  '@nestjs',
  'cookie',
  'file-type',
  '@electric-sql/pglite',
  '@prisma/schema-engine-wasm',
  'uid',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  'load-esm',
  // @fastify/static (the /docs page) pulls in glob 14 and its ESM-only helpers.
  '@fastify/static',
  'glob',
  'minimatch',
  'path-scurry',
  'minipass',
  'lru-cache',
  'jackspeak',
  '@isaacs',
  'foreground-child',
  'package-json-from-dist',
  'content-disposition',
  'balanced-match',
  // mpg123-decoder (the MP3 check of simulated recordings) and its helpers ship ESM only.
  'mpg123-decoder',
  '@wasm-audio-decoders',
  'simple-yenc',
  '@eshaz',
  'brace-expansion',
];

/** Jest globalSetup and globalTeardown of every kind that needs PostgreSQL and the tests' own nats-server. */
const withServices = {
  globalSetup: join(workspaceRoot, 'libs/testing/src/global-setup.ts'),
  globalTeardown: join(workspaceRoot, 'libs/testing/src/global-teardown.ts'),
};

const KINDS = {
  unit: { suffix: 'spec.ts' },
  integration: { suffix: 'int-spec.ts', ...withServices },
  e2e: { suffix: 'e2e-spec.ts', ...withServices },
  // Builds the console when stale and checks Chromium is there, then as e2e (PostgreSQL, the tests' nats-server).
  browser: {
    suffix: 'browser-spec.ts',
    ...withServices,
    globalSetup: join(workspaceRoot, 'test/browser/support/global-setup.ts'),
  },
};

/**
 * One kind of test under `dir` as a Jest project. `ignore`: folders under `dir` that are other Nx projects, whose
 * tests are theirs.
 */
function jestProject(kind, dir, ignore = []) {
  const { suffix, ...setup } = KINDS[kind];
  return {
    rootDir: dir,
    displayName: kind,
    testMatch: [`<rootDir>/**/*.${suffix}`],
    testPathIgnorePatterns: ['/node_modules/', ...ignore.map((folder) => `<rootDir>/${folder}/`)],
    transform: { '^.+\\.(t|j|mj|cj)sx?$': swc },
    transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
    moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
    moduleNameMapper: { '^@switchboard/([a-z-]+)$': join(workspaceRoot, 'libs/$1/src/index.ts') },
    testEnvironment: 'node',
    modulePathIgnorePatterns: [
      '<rootDir>/dist',
      join(workspaceRoot, '(apps|libs)/[^/]+/dist'),
      join(workspaceRoot, 'dist'),
    ],
    ...setup,
  };
}

/**
 * A project's Jest config: the kinds of test under its folder (a library's or an app's: unit and integration; a kind
 * with no file costs nothing, as Jest runs a kind's global setup only for the tests it found). Two cores: one Jest worker per project task
 * (Nx runs two tasks at once) keeps the suite parallel without starving the services integration tests start; the
 * system's tests take two, as they run alone.
 */
function jestConfig(dir, kinds = ['unit', 'integration'], { ignore = [], maxWorkers = 1 } = {}) {
  return {
    projects: kinds.map((kind) => jestProject(kind, dir, ignore)),
    maxWorkers,
    passWithNoTests: true,
    // Every test skipped says why (tools/dev/skipped-tests.mjs): listed after each run.
    reporters: ['default', join(workspaceRoot, 'tools/dev/skipped-tests-reporter.mjs')],
  };
}

module.exports = { jestConfig, jestProject, KINDS, workspaceRoot };
