import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SealingKeyPair } from '@switchboard/messaging';
import { loadSealingKey } from './webhook-sealing-key';

describe('the dispatcher\'s sealing key', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-sealing-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is required in production', () => {
    expect(() => loadSealingKey({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow('WEBHOOK_SEALING_KEY is required when NODE_ENV=production');
  });

  it('comes from WEBHOOK_SEALING_KEY, and a value that is no X25519 key stops the start', () => {
    const pair = SealingKeyPair.generate();
    expect(loadSealingKey({ NODE_ENV: 'production', WEBHOOK_SEALING_KEY: pair.toPkcs8() })).toEqual({ key: expect.any(SealingKeyPair), file: undefined });
    expect(loadSealingKey({ WEBHOOK_SEALING_KEY: pair.toPkcs8() }).key.publicKey).toBe(pair.publicKey);
    expect(() => loadSealingKey({ WEBHOOK_SEALING_KEY: 'c2hvcnQ=' })).toThrow(/WEBHOOK_SEALING_KEY: .*PKCS#8/);
  });

  it('outside production is made once into DATA_DIR (mode 0600) and kept across restarts', () => {
    const dir = dataDir();
    const first = loadSealingKey({ DATA_DIR: dir });
    expect(first.file).toBe(join(dir, 'webhook-sealing-key'));
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file!, 'utf8')).not.toContain(first.key.publicKey);
    expect(loadSealingKey({ DATA_DIR: dir }).key.publicKey).toBe(first.key.publicKey);
  });
});
