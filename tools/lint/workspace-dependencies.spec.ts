import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Nx builds its project graph (and so `nx affected`) from the workspace packages' package.json dependencies. This
// keeps those lists true to the code: every `@switchboard/*` package a project imports is declared, runtime imports
// under `dependencies`, test-only imports under either list, and nothing is declared that is not imported.
// A spec rather than an ESLint rule (tools/lint/eslint-rules): it checks package.json against the imports of a whole
// project, and "declared, yet imported by no file" is no property of any one file, which is all ESLint sees at a time.
const root = join(__dirname, '..', '..');
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;
// libs/testing imports libs/persistence at run time, so persistence's own tests cannot declare testing back
// without a cycle in the task graph; persistence's tests are rerun by `nx affected` whenever persistence changes.
const UNDECLARED_BY_DESIGN = new Set(['@switchboard/persistence -> @switchboard/testing']);

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (['node_modules', 'dist', 'generated'].includes(entry)) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(projectDir: string, self: string): { runtime: Set<string>; testOnly: Set<string> } {
  const runtime = new Set<string>();
  const tests = new Set<string>();
  for (const file of sourceFiles(projectDir)) {
    const isTest = TEST_FILE.test(file) || relative(projectDir, file).startsWith('test/');
    for (const [, name] of readFileSync(file, 'utf8').matchAll(/(?:from |import\()'(@switchboard\/[a-z-]+)'/g)) {
      if (name !== self) (isTest ? tests : runtime).add(name);
    }
  }
  return { runtime, testOnly: new Set([...tests].filter((name) => !runtime.has(name))) };
}

const projects = ['apps', 'libs'].flatMap((kind) =>
  readdirSync(join(root, kind)).map((name) => join(root, kind, name)),
);

describe.each(projects.map((dir) => [relative(root, dir), dir]))('%s package.json', (_label, dir) => {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  const { runtime, testOnly } = importsOf(dir, manifest.name);
  const declaredRuntime = Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@switchboard/'));
  const declaredDev = Object.keys(manifest.devDependencies ?? {}).filter((name) => name.startsWith('@switchboard/'));
  const expected = (names: Set<string>) =>
    [...names].filter((name) => !UNDECLARED_BY_DESIGN.has(`${manifest.name} -> ${name}`)).sort();

  it('declares every workspace package its code imports at run time as a dependency', () => {
    expect(declaredRuntime.sort()).toEqual(expected(runtime));
  });

  it('declares the workspace packages only its tests import as dev dependencies', () => {
    expect(declaredDev.sort()).toEqual(expected(testOnly));
  });
});
