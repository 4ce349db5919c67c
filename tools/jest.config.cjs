// tools/perf is a project of its own, with its own config.
module.exports = require('../jest.preset.cjs').jestConfig(__dirname, undefined, { ignore: ['perf'] });
