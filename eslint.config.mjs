// Lint: module boundaries that really forbid something, plus a few rules that catch real bugs.
// Boundaries come from the `nx.tags` in each project's package.json (after STYLE.md):
//   type:app        may import contracts, util libs (never another app)
//   type:util       may import contracts and other util libs (never an app)
//   type:contracts  may import nothing of ours
//   type:test       (libs/testing) may import contracts and util libs
// Libs are imported only through their root entry point (`@switchboard/x`, never `@switchboard/x/src/...`).
import nxPlugin from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

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
// Who may import whom, by the `nx.tags` in each project's package.json: Nx's own rule reads them from its project graph.
const DEPENDENCY_CONSTRAINTS = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
  { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:test'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
];

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
    // Module boundaries (Nx): apps never import apps, libs never import apps, contracts import nothing of ours, and
    // other projects only through their package name (`@switchboard/x`), never by a path into them.
    files: ['{apps,libs}/*/src/**/*.ts', '{apps,libs}/*/src/**/*.tsx'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts'],
    plugins: { '@nx': nxPlugin },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: DEPENDENCY_CONSTRAINTS,
          enforceBuildableLibDependency: false,
          // libs/testing imports the libs whose tests use it (a dev dependency): a cycle only in the test graph.
          ignoredCircularDependencies: [['@switchboard/testing', '*']],
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
);
