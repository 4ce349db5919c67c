import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const IMAGES = join(__dirname, 'images.mjs');

/** buildOpenFilesLimit of images.mjs on a /proc/self/limits text, run by Node as the module is (ESM). */
function limitFor(limits: string): string {
  const script = `import(${JSON.stringify(IMAGES)}).then((m) => process.stdout.write(String(m.buildOpenFilesLimit(${JSON.stringify(limits)}))))`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.trim();
}

describe("images.mjs: the build's open-files limit (buildah gives RUN steps 1024; npm ci overran it)", () => {
  it("is the builder's own hard limit", () => {
    expect(
      limitFor(
        'Max cpu time              unlimited            unlimited            seconds\nMax open files            1024                 20000                files\n',
      ),
    ).toBe('20000');
  });

  it('is a million when the builder has no limit', () => {
    expect(limitFor('Max open files            unlimited            unlimited            files\n')).toBe('1048576');
  });
});
