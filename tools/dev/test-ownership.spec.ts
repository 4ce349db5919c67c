// Every test file runs in `npm test` only if an Nx project's jest.config.cjs (jest.preset.cjs) covers it: a test
// file in a folder no project's config reaches, or of a kind its project's config does not ask for, would never
// run, silently. This is the check that it cannot happen.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

interface JestProject {
  rootDir: string;
  displayName: string;
  testMatch: string[];
  testPathIgnorePatterns: string[];
}

/** The nearest folder at or above `file` with a jest.config.cjs, up to the workspace root (excluded). */
function owningConfig(file: string): string | undefined {
  for (let dir = dirname(join(root, file)); dir !== root; dir = dirname(dir)) {
    const config = join(dir, 'jest.config.cjs');
    if (existsSync(config)) return config;
  }
  return undefined;
}

/** Whether one of the config's projects runs `file`: its suffix asked for, under its folder, not ignored. */
function runs(projects: JestProject[], file: string): boolean {
  const path = join(root, file);
  return projects.some((project) => {
    const suffix = project.testMatch[0].replace('<rootDir>/**/*', '');
    if (!path.endsWith(suffix)) return false;
    if (relative(project.rootDir, path).startsWith('..')) return false;
    return !project.testPathIgnorePatterns.some((pattern) =>
      new RegExp(pattern.replace('<rootDir>', project.rootDir)).test(path),
    );
  });
}

describe('test files and the projects that run them', () => {
  const files = execFileSync('git', ['ls-files', '*.spec.ts', '*.int-spec.ts', '*.e2e-spec.ts', '*.browser-spec.ts'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);

  it('finds the test files', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it('gives every test file a project whose Jest config runs it', () => {
    const orphans = files.filter((file) => {
      const config = owningConfig(file);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the configs are CommonJS, read as Jest reads them
      return !config || !runs((require(config) as { projects: JestProject[] }).projects, file);
    });
    expect(orphans).toEqual([]);
  });

  it('would notice a file no project runs', () => {
    const projects = (require(join(root, 'tools', 'jest.config.cjs')) as { projects: JestProject[] }).projects; // eslint-disable-line @typescript-eslint/no-require-imports
    expect(runs(projects, 'tools/dev/free-port.spec.ts')).toBe(true);
    expect(runs(projects, 'tools/perf/lib/stats.spec.ts')).toBe(false);
    expect(runs(projects, 'tools/dev/free-port.e2e-spec.ts')).toBe(false);
    expect(owningConfig('scripts/x.spec.ts')).toBeUndefined();
  });
});
