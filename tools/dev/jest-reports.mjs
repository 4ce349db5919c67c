// `npm test` runs Jest once per Nx task (a project's unit tests, its integration tests, the system's e2e and browser
// tests), each writing Jest's JSON report under dist/jest/<project root>/<kind>.json. These functions read them back
// as one report for the summary, and name every test file no task ran: a file outside every project's pattern (a new
// folder, a project without the target) would otherwise never run, silently.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Every report file under `dir`, depth first. */
export function reportFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return reportFiles(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}

/** The reports as one, with the counts the summary prints; a report Jest did not finish writing is unreadable. */
export function mergeReports(reports) {
  const merged = { numTotalTests: 0, numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, testResults: [] };
  for (const report of reports) {
    for (const key of ['numTotalTests', 'numPassedTests', 'numFailedTests', 'numPendingTests'])
      merged[key] += report[key] ?? 0;
    merged.testResults.push(...(report.testResults ?? []));
  }
  return merged;
}

/**
 * A test file's path as it is in this checkout. Jest names files by absolute path, and Nx restores a cached task's
 * report as it was written, possibly by another checkout of the same sources (CI's clones share a cache): its paths
 * then start with that checkout's folder. The report's place, dist/jest/<project root>/, says which project it is
 * for; the file is the one under that project root here.
 */
export function fileInThisCheckout(name, projectRoot, root) {
  if (name.startsWith(root + sep)) return name;
  const marker = `${sep}${projectRoot}${sep}`;
  for (let at = name.indexOf(marker); at !== -1; at = name.indexOf(marker, at + 1)) {
    const here = join(root, name.slice(at + 1));
    if (existsSync(here)) return here;
  }
  return name;
}

/** Every report under `dir` (dist/jest), its files named as they are under `root`, as one. */
export function readReports(dir, root) {
  return mergeReports(
    reportFiles(dir).map((file) => {
      const report = JSON.parse(readFileSync(file, 'utf8'));
      const projectRoot = relative(dir, dirname(file));
      for (const result of report.testResults ?? []) result.name = fileInThisCheckout(result.name, projectRoot, root);
      return report;
    }),
  );
}

/** The test files Jest knows (`jest --listTests`) that no report ran, relative to `root`, sorted. */
export function testFilesNotRun(listed, report, root) {
  const ran = new Set(report.testResults.map((result) => result.name));
  return listed
    .filter((file) => !ran.has(file))
    .map((file) => relative(root, file))
    .sort();
}
