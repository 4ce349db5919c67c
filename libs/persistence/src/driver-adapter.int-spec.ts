import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDriverAdapter } from '@switchboard/persistence';

jest.setTimeout(30_000);

describe("an embedded PGlite database's directory", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pglite-mode-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const modeOf = (directory: string) => fs.statSync(directory).mode & 0o777;

  it('is made with mode 0700: PGlite itself leaves its folders 0755 and files 0666', async () => {
    const driver = await createDriverAdapter('fixture', { DATA_DIR: dataDir });
    await driver.close();
    expect(modeOf(path.join(dataDir, 'fixture'))).toBe(0o700);
  });

  it('is tightened to 0700 when an earlier version left it 0755, and still opens', async () => {
    const first = await createDriverAdapter('fixture', { DATA_DIR: dataDir });
    await first.pglite!.query('CREATE TABLE kept (id int)');
    await first.close();
    fs.chmodSync(path.join(dataDir, 'fixture'), 0o755);

    const again = await createDriverAdapter('fixture', { DATA_DIR: dataDir });
    try {
      expect(modeOf(path.join(dataDir, 'fixture'))).toBe(0o700);
      expect((await again.pglite!.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 0 }]);
    } finally {
      await again.close();
    }
  });
});
