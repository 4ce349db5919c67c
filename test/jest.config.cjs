// The system's tests: the five services booted (e2e), and the console in Chromium against them (browser). They run
// alone, after every other project's tests and builds (test/project.json: the bundles and the console they start are
// built once, by Nx, and cached), so two workers.
module.exports = require('../jest.preset.cjs').jestConfig(__dirname, ['e2e', 'browser'], { maxWorkers: 2 });
