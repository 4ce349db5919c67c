// The four kinds of test (jest.preset.cjs) over the whole tree, for a one-off run from the root:
// `npx jest <path> --selectProjects unit|integration|e2e|browser`. `npm test` runs each Nx project's own config.
const { jestProject, KINDS, workspaceRoot } = require('./jest.preset.cjs');

module.exports = {
  projects: Object.keys(KINDS).map((kind) => jestProject(kind, workspaceRoot)),
  reporters: ['default', '<rootDir>/tools/dev/skipped-tests-reporter.mjs'],
};
