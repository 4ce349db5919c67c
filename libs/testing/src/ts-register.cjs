// Lets a plain `node` child process run this repository's TypeScript as Jest does (swc, CommonJS, legacy
// decorators, `@switchboard/<lib>` mapped to libs/<lib>/src). Used by tests that must kill a real process
// (SIGKILL cannot be simulated inside the test's own process). Nest's ESM packages load through Node's
// require(esm), as in a built service.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { transformSync } = require('@swc/core');
const swcOptions = require('./swc-options.cjs');

const root = path.resolve(__dirname, '../../..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@switchboard\/([a-z-]+)$/.exec(request);
  return resolveFilename.call(this, lib ? path.join(root, 'libs', lib[1], 'src', 'index.ts') : request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swcOptions, filename });
  module._compile(code, filename);
};
