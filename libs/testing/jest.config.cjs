module.exports = require('../../jest.preset.cjs').jestConfig(__dirname);
