import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEncryptionKeys } from '../src/crypto/encryption-keys';

describe('loadEncryptionKeys', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-nb-keys-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('requires SECRETS_ENCRYPTION_KEY in production', () => {
    expect(() => loadEncryptionKeys({ DATA_DIR: dataDir() }, true)).toThrow(
      'SECRETS_ENCRYPTION_KEY is required when NODE_ENV=production',
    );
  });

  it('outside production makes a key once and keeps it in DATA_DIR/secrets-encryption-key with mode 0600', () => {
    const dir = dataDir();
    const first = loadEncryptionKeys({ DATA_DIR: dir }, false);
    expect(first.file).toBe(join(dir, 'secrets-encryption-key'));
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(first.file!, 'utf8').trim(), 'base64')).toHaveLength(32);
    const again = loadEncryptionKeys({ DATA_DIR: dir }, false);
    expect(again.keys.current.id).toBe(first.keys.current.id);
  });

  it('uses the configured key and keeps previous keys for reading', () => {
    const current = randomBytes(32).toString('base64');
    const previous = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
    const { keys, file } = loadEncryptionKeys(
      { SECRETS_ENCRYPTION_KEY: current, SECRETS_ENCRYPTION_PREVIOUS_KEYS: previous.join(', '), DATA_DIR: dataDir() },
      true,
    );
    expect(file).toBeUndefined();
    expect(keys.byId.size).toBe(3);
    expect(keys.current.key.toString('base64')).toBe(current);
  });
});
