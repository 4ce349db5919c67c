// One Jest config, four kinds of test, chosen by file name (see docs/testing.md):
//   *.spec.ts          unit tests beside the code, no I/O
//   *.int-spec.ts      integration tests against real PostgreSQL and NATS (own databases and subject prefix)
//   *.e2e-spec.ts      end-to-end: the five services booted, driven over HTTP
//   *.browser-spec.ts  the web console (apps/console, built) in Chromium against the booted system (ADR 0068)
// Nest 12 and a few dependencies ship ESM only; swc turns them into CommonJS for Jest (notes/stack.md).
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

/** Jest globalTeardown shared by every project that boots the system (stops the tests' nats-server). */
const globalTeardown = '<rootDir>/libs/testing/src/global-teardown.ts';

const common = {
  rootDir: __dirname,
  transform: { '^.+\\.(t|j|mj|cj)sx?$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: { '^@switchboard/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts' },
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/apps/[^/]+/dist', '<rootDir>/libs/[^/]+/dist'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      globalTeardown,
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      globalTeardown,
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      // Builds the console when stale and checks Chromium is there, then as e2e (PostgreSQL, the tests' nats-server).
      globalSetup: '<rootDir>/test/browser/support/global-setup.ts',
      globalTeardown,
    },
  ],
};
