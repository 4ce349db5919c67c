import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const root = join(__dirname, '..', '..');

/**
 * The apps whose feature folders must not import each other in circles (issue 21). Left out for now: the gateway,
 * reorganised on its own (auth <-> api-keys, auth <-> rate-limit, auth <-> config), and calls-media
 * (call-reports <-> number-ownership, call-reports <-> telephony). Add an app once its folders are free of them.
 */
const CHECKED_APPS = ['gateway', 'calls-media', 'numbers-billing', 'lostfound', 'webhook-dispatcher'];

/** Relative import specifiers (`from '../x'`, `import('../x')`, `export … from '../x'`), type-only ones included. */
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    // Tests may reach across folders for fixtures; a cycle is about what the running service loads.
    return entry.name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Feature folder → the feature folders its production files import, each edge with one file that makes it. */
export function featureEdges(srcDir: string): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(srcDir)) {
    const [from] = relative(srcDir, file).split(sep);
    if (from === relative(srcDir, file)) continue; // a file at src/ root (module, main) is no feature
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const [to] = relative(srcDir, resolve(file, '..', specifier)).split(sep);
      if (to === from || to.startsWith('..')) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from)!;
      if (!targets.has(to)) targets.set(to, relative(root, file));
    }
  }
  return edges;
}

/** Every elementary cycle's edges, found once each (started from its alphabetically first folder). */
export function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = [];
  const walk = (start: string, path: string[]): void => {
    for (const next of edges.get(path[path.length - 1])?.keys() ?? []) {
      if (next === start) {
        found.push([...path, start].slice(1).map((to, i) => `${path[i]} -> ${to} (${edges.get(path[i])!.get(to)})`));
      } else if (next > start && !path.includes(next)) {
        walk(start, [...path, next]);
      }
    }
  };
  for (const start of [...edges.keys()].sort()) walk(start, [start]);
  return found;
}

describe('feature folder cycles', () => {
  it('finds a cycle and names its edges', () => {
    const edges = new Map([
      ['billing', new Map([['numbers', 'billing/a.ts']])],
      [
        'numbers',
        new Map([
          ['billing', 'numbers/b.ts'],
          ['money', 'numbers/c.ts'],
        ]),
      ],
      ['money', new Map<string, string>()],
    ]);
    expect(cycles(edges)).toEqual([['billing -> numbers (billing/a.ts)', 'numbers -> billing (numbers/b.ts)']]);
  });

  it('passes folders that import each other in one direction only', () => {
    const edges = new Map([
      [
        'billing',
        new Map([
          ['numbers', 'billing/a.ts'],
          ['money', 'billing/b.ts'],
        ]),
      ],
      ['numbers', new Map([['money', 'numbers/c.ts']])],
    ]);
    expect(cycles(edges)).toEqual([]);
  });

  it.each(CHECKED_APPS)('%s: no feature folder imports another in a circle', (app) => {
    const srcDir = join(root, 'apps', app, 'src');
    expect(featureEdges(srcDir).size).toBeGreaterThan(0);
    expect(cycles(featureEdges(srcDir))).toEqual([]);
  });
});
