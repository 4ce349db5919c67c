// `npm test` runs Jest once per Nx task (a project's unit tests, its integration tests, the system's e2e and browser
// tests), each writing Jest's JSON report under dist/jest/<project root>/<kind>.json. These functions read them back
// as one report for the summary, and name every test file no task ran: a file outside every project's pattern (a new
// folder, a project without the target) would otherwise never run, silently.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

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

export function readReports(dir) {
  return mergeReports(reportFiles(dir).map((file) => JSON.parse(readFileSync(file, 'utf8'))));
}

/** The test files Jest knows (`jest --listTests`) that no report ran, relative to `root`, sorted. */
export function testFilesNotRun(listed, report, root) {
  const ran = new Set(report.testResults.map((result) => result.name));
  return listed
    .filter((file) => !ran.has(file))
    .map((file) => relative(root, file))
    .sort();
}
