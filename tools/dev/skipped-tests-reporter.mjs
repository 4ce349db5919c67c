// A Jest reporter (jest.preset.cjs): after each run, every test that did not run and why, grouped by file and reason
// (skipped-tests.mjs). Printed by every project's test task, so a skip is never silent in `npm test`.
import { describeSkipped, skippedTests } from './skipped-tests.mjs';

export default class SkippedTestsReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  onRunComplete(_contexts, results) {
    // The aggregated result names what the JSON report calls `name` and `assertionResults` differently.
    const report = {
      testResults: results.testResults.map((file) => ({ name: file.testFilePath, assertionResults: file.testResults })),
    };
    const skipped = skippedTests(report, this.globalConfig.rootDir);
    if (skipped.length === 0) return;
    const lines = describeSkipped(skipped, { nameFilter: Boolean(this.globalConfig.testNamePattern) });
    process.stderr.write(`\nSkipped, and why:\n${lines.join('\n')}\n`);
  }
}
