import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { esmEntry, exportedNames } from './esm-entry.mjs';
import { sourceOf } from './pack.mjs';

const root = join(__dirname, '..', '..');

describe('the ES module entry of a CommonJS package', () => {
  it("lists the module's own exports, sorted, without __esModule and default", () => {
    expect(exportedNames({ verify: 1, __esModule: true, default: {}, SwitchboardError: 2, paginate: 3 })).toEqual([
      'SwitchboardError',
      'paginate',
      'verify',
    ]);
  });

  it('refuses a name an ES module cannot export as a binding', () => {
    expect(() => exportedNames({ 'not-a-name': 1 })).toThrow('not-a-name');
  });

  it("re-exports the CommonJS build's values and types from ./index.js", () => {
    const entry = esmEntry('@switchboard/x', ['paginate', 'verify']);
    expect(entry.js).toContain("import cjs from './index.js';\n\nexport const {\n  paginate,\n  verify,\n} = cjs;\n");
    expect(entry.dts).toContain("export * from './index.js';\n");
  });
});

describe('what dist/ holds for a source', () => {
  it.each([
    ['index.js', 'index.ts'],
    ['index.d.ts', 'index.ts'],
    ['index.js.map', 'index.ts'],
    ['generated/openapi.d.ts', 'generated/openapi.ts'],
  ])('%s comes from src/%s', (dist, source) => {
    expect(sourceOf(dist)).toBe(source);
  });

  it('leaves the ES module entry alone and has no source for anything else', () => {
    expect(sourceOf('index.mjs')).toBeNull();
    expect(sourceOf('index.d.mts')).toBeNull();
    expect(sourceOf('tsconfig.build.tsbuildinfo')).toBeUndefined();
  });
});

describe("the signing package's README", () => {
  jest.setTimeout(60_000);

  it('points only to files of the package that its tarball holds', () => {
    const dir = join(root, 'libs/signing');
    // Every `path` the README names that is a file of the package's folder (dist/ is built, and packed, later).
    const named = [...readFileSync(join(dir, 'README.md'), 'utf8').matchAll(/`([\w./-]+)`/g)]
      .map(([, path]) => path)
      .filter((path) => !path.startsWith('dist/') && existsSync(join(dir, path)) && path !== '.');
    expect(named).toContain('examples/receiver.ts');
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--workspace', 'libs/signing'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { files: { path: string }[] }[];
    const files = new Set(packed.files.map((file) => file.path));
    expect(named.filter((path) => !files.has(path))).toEqual([]);
  });
});
