// The skipped tests of a Jest run and why, for the reporter every test task prints (skipped-tests-reporter.mjs). A
// test that may be skipped says why in its own title or an enclosing describe's, as "(skipped: REASON)", when it
// is skipped, e.g.
//   describe(`a recording, as FFmpeg decodes it${decoderPresent ? '' : ' (skipped: ffmpeg is not installed)'}`, ...)
// Jest's JSON report keeps titles but not why a test did not run, so the title is where the reason travels.
import { relative } from 'node:path';

const REASON_IN_TITLE = /\(skipped: (.*)\)/;
export const NO_REASON = 'no reason given (say why in its title: "(skipped: REASON)")';

/** Every test of the report that did not run, as { file, title, reason }, in report order. */
export function skippedTests(report, root) {
  const skipped = [];
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed' || test.status === 'failed') continue;
      const titles = [...(test.ancestorTitles ?? []), test.title];
      // The innermost title that names a reason: a test's own reason overrides its describe's.
      const reason =
        titles.map((title) => REASON_IN_TITLE.exec(title)?.[1]).findLast(Boolean) ??
        (test.status === 'todo' ? 'a todo: not written yet' : NO_REASON);
      skipped.push({
        file: relative(root, file.name),
        title: titles.map((title) => title.replace(REASON_IN_TITLE, '').trim()).join(' › '),
        reason,
      });
    }
  }
  return skipped;
}

/**
 * The lines npm test prints: one heading per file and reason, then the tests it covers. Under a name filter the
 * tests that give no reason are the ones the filter left out: one line counts them instead of listing every file.
 */
export function describeSkipped(skipped, { nameFilter = false } = {}) {
  const groups = new Map();
  const filteredOut = nameFilter ? skipped.filter((test) => test.reason === NO_REASON) : [];
  for (const test of skipped) {
    if (filteredOut.includes(test)) continue;
    const key = `${test.file}\n${test.reason}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(test);
  }
  const lines = [];
  for (const tests of groups.values()) {
    const count = tests.length === 1 ? '1 test' : `${tests.length} tests`;
    lines.push(`  ${tests[0].file} (${count}): ${tests[0].reason}`);
    for (const test of tests) lines.push(`    ${test.title}`);
  }
  if (filteredOut.length > 0)
    lines.push(
      `  ${filteredOut.length === 1 ? '1 test' : `${filteredOut.length} tests`} left out by the name filter (-t)`,
    );
  return lines;
}
