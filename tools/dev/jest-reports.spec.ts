import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileInThisCheckout, mergeReports, readReports, reportFiles, testFilesNotRun } from './jest-reports.mjs';

const report = (names: string[], passed: number, failed = 0) => ({
  numTotalTests: passed + failed,
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: 0,
  testResults: names.map((name) => ({ name, assertionResults: [] })),
});

describe('Jest reports of the Nx tasks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-jest-reports-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('adds the counts and keeps every file of every report', () => {
    const merged = mergeReports([report(['/r/a.spec.ts'], 3), report(['/r/b.int-spec.ts'], 1, 2)]);
    expect(merged).toMatchObject({ numTotalTests: 6, numPassedTests: 4, numFailedTests: 2 });
    expect(merged.testResults.map((r: { name: string }) => r.name)).toEqual(['/r/a.spec.ts', '/r/b.int-spec.ts']);
  });

  it('reads the reports of nested project folders, and nothing but JSON', () => {
    mkdirSync(join(dir, 'libs', 'signing'), { recursive: true });
    writeFileSync(join(dir, 'libs', 'signing', 'unit.json'), JSON.stringify(report(['/r/s.spec.ts'], 5)));
    writeFileSync(join(dir, 'test-e2e.json'), JSON.stringify(report(['/r/x.e2e-spec.ts'], 2)));
    writeFileSync(join(dir, 'notes.txt'), 'not a report');
    expect(reportFiles(dir)).toHaveLength(2);
    expect(readReports(dir, '/r').numPassedTests).toBe(7);
  });

  it('has no reports when no task ran', () => {
    expect(readReports(join(dir, 'absent'), '/r').numTotalTests).toBe(0);
  });

  it('names the test files no task ran, relative to the root', () => {
    const merged = mergeReports([report(['/r/libs/a.spec.ts'], 1)]);
    expect(testFilesNotRun(['/r/libs/a.spec.ts', '/r/tools/z.spec.ts', '/r/new/b.spec.ts'], merged, '/r')).toEqual([
      'new/b.spec.ts',
      'tools/z.spec.ts',
    ]);
  });

  // CI's run of 2026-11-28 failed here: every unit task was a cache hit restored from another clone's run, so its
  // report named files under that clone's folder and all 93 of them counted as not run.
  it("counts a cached report written by another checkout as this checkout's files", () => {
    const root = join(dir, 'checkout');
    const spec = join(root, 'libs', 'signing', 'src', 'signing.spec.ts');
    mkdirSync(join(root, 'libs', 'signing', 'src'), { recursive: true });
    writeFileSync(spec, '');
    const reports = join(root, 'dist', 'jest');
    mkdirSync(join(reports, 'libs', 'signing'), { recursive: true });
    const elsewhere = '/tmp/ci-clone-7/libs/signing/src/signing.spec.ts';
    writeFileSync(join(reports, 'libs', 'signing', 'unit.json'), JSON.stringify(report([elsewhere], 4)));

    const merged = readReports(reports, root);
    expect(merged.testResults.map((r: { name: string }) => r.name)).toEqual([spec]);
    expect(testFilesNotRun([spec], merged, root)).toEqual([]);
  });

  it('rebases on the project folder whose file exists here, and leaves other names alone', () => {
    const root = join(dir, 'checkout');
    mkdirSync(join(root, 'tools', 'dev'), { recursive: true });
    writeFileSync(join(root, 'tools', 'dev', 'a.spec.ts'), '');
    // The other checkout itself lives under a folder named like the project.
    expect(fileInThisCheckout('/srv/tools/ci/tools/dev/a.spec.ts', 'tools', root)).toBe(
      join(root, 'tools', 'dev', 'a.spec.ts'),
    );
    expect(fileInThisCheckout(join(root, 'tools', 'x.spec.ts'), 'tools', root)).toBe(join(root, 'tools', 'x.spec.ts'));
    expect(fileInThisCheckout('/elsewhere/tools/gone.spec.ts', 'tools', root)).toBe('/elsewhere/tools/gone.spec.ts');
  });
});
