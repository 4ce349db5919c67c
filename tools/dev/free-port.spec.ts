import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ephemeralRange, freePort } from './free-port.mjs';

describe('freePort', () => {
  it('gives a port below the ephemeral range, which a server can then listen on', async () => {
    const [low] = ephemeralRange();
    const port = await freePort();
    if (low - 10_000 >= 1024) expect(port).toBeLessThan(low);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads the ephemeral range from its file, and takes Linux default when it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-free-port-'));
    try {
      writeFileSync(join(dir, 'range'), '40000\t50000\n');
      expect(ephemeralRange(join(dir, 'range'))).toEqual([40000, 50000]);
      writeFileSync(join(dir, 'bad'), 'none\n');
      expect(ephemeralRange(join(dir, 'bad'))).toEqual([32768, 60999]);
      expect(ephemeralRange(join(dir, 'missing'))).toEqual([32768, 60999]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
