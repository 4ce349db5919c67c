// Lint: module boundaries that really forbid something, plus a few rules that catch real bugs.
// Boundaries come from the `nx.tags` in each project's package.json (after STYLE.md):
//   type:app        may import contracts, util libs (never another app)
//   type:util       may import contracts and other util libs (never an app)
//   type:contracts  may import nothing of ours
//   type:test       (libs/testing) may import contracts and util libs
// Libs are imported only through their root entry point (`@switchboard/x`, never `@switchboard/x/src/...`).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const projects = ['apps', 'libs'].flatMap((kind) =>
  readdirSync(join(root, kind))
    .filter((name) => existsSync(join(root, kind, name, 'package.json')))
    .map((name) => {
      const pkg = JSON.parse(readFileSync(join(root, kind, name, 'package.json'), 'utf8'));
      const type = (pkg.nx?.tags ?? []).find((t) => t.startsWith('type:'))?.slice(5);
      return { kind, name, type, pkgName: pkg.name };
    }),
);
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
const MAY_IMPORT = {
  app: ['contracts', 'util'],
  util: ['contracts', 'util'],
  test: ['contracts', 'util'],
  contracts: [],
};
// With the `u` flag ESLint uses, only syntax characters may be escaped ('/' and '-' may not).
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function boundaryRules(project) {
  const allowed = MAY_IMPORT[project.type] ?? [];
  const forbidden = projects.filter((p) => p !== project && !allowed.includes(p.type));
  const patterns = [
    {
      regex: '^@switchboard/[a-z-]+/.+',
      message: 'Import libs through their root entry point only (@switchboard/<lib>).',
    },
    // Catches relative imports that climb out of this project into another one.
    { regex: '(^|/)(apps|libs)/', message: 'Import other projects by package name, never by path.' },
  ];
  if (forbidden.length > 0) {
    patterns.push({
      regex: `^(${forbidden.map((p) => escape(p.pkgName)).join('|')})$`,
      message: `A ${project.type} project may import only ${allowed.join(' and ') || 'nothing of ours'} (module boundaries).`,
    });
  }
  return { 'no-restricted-imports': ['error', { patterns }] };
}

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '.data/**', 'coverage/**', '**/*.js'],
  },
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
  ...projects.map((project) => ({
    files: [`${project.kind}/${project.name}/src/**/*.ts`, `${project.kind}/${project.name}/src/**/*.tsx`],
    ignores: [
      `${project.kind}/${project.name}/src/**/*.spec.ts`,
      `${project.kind}/${project.name}/src/**/*.int-spec.ts`,
    ],
    rules: boundaryRules(project),
  })),
);
