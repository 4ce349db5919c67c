// The system's tests: the five services booted (e2e), and the console in Chromium against them (browser). They run
// alone, after every other project's tests and builds (test/project.json: the bundles and the console they start are
// built once, by Nx, and cached). Three workers on two cores: much of an end-to-end file is waiting (for a delivery,
// a backoff, a page), so a third file fills that time; measured on a 2-core machine, 370 s with two workers, 305 s
// with three (CPU idle 5%).
module.exports = require('../jest.preset.cjs').jestConfig(__dirname, ['e2e', 'browser'], { maxWorkers: 3 });
