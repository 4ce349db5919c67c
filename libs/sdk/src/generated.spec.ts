import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

// The SDK's types are generated from the public OpenAPI description; a route or DTO changed without running the
// generator fails here (and so `npm test`), naming the command that brings them up to date.
describe('the generated SDK types', () => {
  it('match the OpenAPI description the gateway serves (node tools/sdk/generate.mjs --check)', () => {
    expect(() =>
      execFileSync(process.execPath, [join(root, 'tools/sdk/generate.mjs'), '--check'], {
        cwd: root,
        stdio: 'pipe',
        timeout: 60_000,
      }),
    ).not.toThrow();
  }, 90_000);
});
