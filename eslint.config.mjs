// Lint: module boundaries that really forbid something, plus a few rules that catch real bugs, plus Switchboard's own
// rules about its architecture (tools/lint/eslint-rules, the `switchboard` plugin).
// Boundaries come from the tags in each project's package.json (`nx.tags`; project.json for tools/ and test/):
//   type:app, scope:<app>    an app: uses libs, never another app nor libs/testing
//   type:lib, scope:<lib>    a lib: uses the libs docs/architecture.md lists for it ("Libraries"), never an app
//   type:test                libs/testing (scope:testing), used by tests; the system tests (test/, scope:system-tests)
//   type:tool                tools/ and tools/perf (scope:tools, scope:perf)
// Libs are imported only through their root entry point (`@switchboard/x`, never `@switchboard/x/src/...`).
import nxPlugin from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import switchboard from './tools/lint/eslint-rules/index.mjs';

const root = import.meta.dirname;
// Node's globals for the .mjs/.cjs tools (the `globals` package is not a dependency of ours).
const NODE_GLOBALS = [
  'process',
  'console',
  'Buffer',
  'URL',
  'URLSearchParams',
  'AbortController',
  'AbortSignal',
  'TextEncoder',
  'TextDecoder',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'queueMicrotask',
  'structuredClone',
  'fetch',
  'Response',
  'Request',
  'Headers',
  'performance',
  'globalThis',
  'WebAssembly',
  'SharedArrayBuffer',
  'Atomics',
];
// Who may import whom, by the projects' tags: Nx's rule reads them from its project graph, and a project must satisfy
// every constraint whose tag it has. The rule lints the apps' and libs' sources only: tools/ and the system tests
// (test/) drive the apps from outside and reach into their sources on purpose (tools/perf, test/e2e).
const DEPENDENCY_CONSTRAINTS = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  // The console is a browser bundle: the API's shapes and nothing of the servers' (NATS, Prisma, pino).
  { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  // Each lib's own, after docs/architecture.md. signing and sdk are the two published packages: sdk uses signing only.
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:persistence', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:observability', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:egress', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:signing', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:sdk', onlyDependOnLibsWithTags: ['scope:signing'] },
  {
    sourceTag: 'scope:messaging',
    onlyDependOnLibsWithTags: ['scope:contracts', 'scope:persistence', 'scope:observability'],
  },
  {
    sourceTag: 'scope:service-runtime',
    onlyDependOnLibsWithTags: ['scope:contracts', 'scope:persistence', 'scope:observability', 'scope:messaging'],
  },
  { sourceTag: 'scope:providers', onlyDependOnLibsWithTags: ['scope:service-runtime'] },
  { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:persistence', 'scope:messaging'] },
];
// Tests: the boundaries and Switchboard's rules are about what the running services load and do, so they leave tests
// alone (a test may set up rows with raw SQL, or reach into another feature folder for a fixture).
const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.browser-spec.ts'];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '.data/**', 'coverage/**', '**/*.js'],
  },
  // typescript-eslint's type-checked recommendations: unsafe `any` flowing into typed code, promises misused,
  // template literals of objects, methods passed unbound.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.ts', '**/*.tsx'] })),
  {
    // .tsx: the console (apps/console), checked with its own tsconfig (the project service finds the nearest one).
    files: ['**/*.ts', '**/*.tsx'],
    // Type-aware (the project service reads tsconfig.json), for the promise rules below.
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: root } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-unreachable': 'error',
      'no-self-assign': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'none', ignoreRestSiblings: true, varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-unused-expressions': 'error',
      // A promise nobody awaits loses its error (an unhandled rejection) and its ordering; say `void` when meant.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Tests poke at untyped JSON bodies and mocks on purpose: the `any` rules would only add casts there.
    files: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      '**/*.browser-spec.ts',
      'test/**/*.ts',
      '{apps,libs}/*/test/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The tools (operator CLI, dev runner, benchmarks, fault tests, deploy check) and the few CommonJS helpers are
    // plain JavaScript run by Node: the same bug-catching rules, with Node's globals known.
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: {
      ecmaVersion: 2024,
      globals: Object.fromEntries(NODE_GLOBALS.map((name) => [name, 'readonly'])),
    },
    rules: {
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-unreachable': 'error',
      'no-self-assign': 'error',
      'no-undef': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-unused-vars': [
        'error',
        { args: 'none', ignoreRestSiblings: true, varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-unused-expressions': 'error',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
      },
    },
  },
  {
    // Module boundaries (Nx): apps never import apps, libs never import apps, each lib only the libs it is allowed, and
    // other projects only through their package name (`@switchboard/x`), never by a path into them.
    files: ['{apps,libs}/*/src/**/*.ts', '{apps,libs}/*/src/**/*.tsx'],
    ignores: TEST_FILES,
    plugins: { '@nx': nxPlugin },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: DEPENDENCY_CONSTRAINTS,
          enforceBuildableLibDependency: false,
          // Nx's project graph has the tests' imports too: libs/testing uses the libs whose tests use it, the apps'
          // tests borrow the system tests' stand-ins and the tools' helpers, and the tools' and system tests' own specs
          // reach into the apps. Cycles through them exist only in the tests; cycles among libs and apps still fail.
          // Each pair is of two kinds: Nx's rule checks no constraints on an import whose project pairs with itself.
          ignoredCircularDependencies: [
            ['tag:type:test', 'tag:type:lib'],
            ['tag:type:test', 'tag:type:app'],
            ['tag:type:tool', 'tag:type:lib'],
            ['tag:type:tool', 'tag:type:app'],
          ],
        },
      ],
      // Nx allows `@switchboard/x/<path>` into a lib that exports it; ours export only their root entry point.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@switchboard/[a-z-]+/.+',
              message: 'Import libs through their root entry point only (@switchboard/<lib>).',
            },
          ],
        },
      ],
    },
  },
  {
    plugins: { switchboard },
  },
  {
    // How the services reach their data (ADR 0070, docs/operations.md): Kysely through the app's Prisma
    // client, never Prisma's raw SQL; statements that name their columns; transactions opened by `Transactions.run`.
    files: ['{apps,libs}/*/src/**/*.ts', '{apps,libs}/*/src/**/*.tsx'],
    ignores: TEST_FILES,
    rules: {
      'switchboard/no-prisma-raw-sql': 'error',
      'switchboard/no-all-columns': 'error',
      'switchboard/no-direct-transaction': 'error',
    },
  },
  {
    // libs/persistence's Kysely driver runs Kysely's compiled statements on Prisma's raw path: the one place that may.
    files: ['libs/persistence/src/kysely.ts'],
    rules: { 'switchboard/no-prisma-raw-sql': 'off' },
  },
  {
    // `Transactions.run` is the one caller of `$transaction`.
    files: ['libs/persistence/src/transactions.ts'],
    rules: { 'switchboard/no-direct-transaction': 'off' },
  },
  {
    files: ['apps/*/src/**/*.service.ts'],
    rules: { 'switchboard/no-prisma-in-services': 'error' },
  },
  {
    // Inside an app, the folders under src/ import each other in one direction only (docs/architecture.md).
    files: ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx'],
    ignores: TEST_FILES,
    rules: { 'switchboard/no-feature-cycles': 'error' },
  },
);
