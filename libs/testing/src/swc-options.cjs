// How this repository's TypeScript is compiled outside tsc: by Jest (jest.config.js) and by the child processes
// tests start (ts-register.cjs). One place, so both run the same code the same way.
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
