import { randomBytes } from 'node:crypto';
import { EncryptionKeyError, keyIdOf, keyring, parseKey, type EncryptionKey } from './encryption-keys';
import { SecretBox, SecretBoxError, newWebhookSecret } from './secret-box';

function key(): EncryptionKey {
  const raw = randomBytes(32);
  return { id: keyIdOf(raw), key: raw };
}

describe('SecretBox', () => {
  it('opens what it sealed, and the ciphertext does not contain the secret', () => {
    const box = new SecretBox(keyring(key()));
    const secret = newWebhookSecret();
    const sealed = box.seal(secret, 'numbers.webhook_secret:num_1');
    expect(sealed.ciphertext).not.toContain(secret);
    expect(box.open(sealed, 'numbers.webhook_secret:num_1')).toBe(secret);
  });

  it('seals the same secret differently each time (fresh IV)', () => {
    const box = new SecretBox(keyring(key()));
    expect(box.seal('same', 'ctx').ciphertext).not.toBe(box.seal('same', 'ctx').ciphertext);
  });

  it('refuses a ciphertext moved to another row', () => {
    const box = new SecretBox(keyring(key()));
    const sealed = box.seal('s3cret', 'numbers.webhook_secret:num_1');
    expect(() => box.open(sealed, 'numbers.webhook_secret:num_2')).toThrow(SecretBoxError);
  });

  it('refuses a tampered ciphertext', () => {
    const box = new SecretBox(keyring(key()));
    const sealed = box.seal('s3cret', 'ctx');
    const bytes = Buffer.from(sealed.ciphertext, 'base64url');
    bytes[bytes.length - 1] ^= 1;
    expect(() => box.open({ ...sealed, ciphertext: bytes.toString('base64url') }, 'ctx')).toThrow(SecretBoxError);
  });

  it('after a rotation, still opens secrets sealed with a previous key and seals new ones with the current key', () => {
    const oldKey = key();
    const newKey = key();
    const sealedBefore = new SecretBox(keyring(oldKey)).seal('before', 'ctx');
    const rotated = new SecretBox(keyring(newKey, [oldKey]));
    expect(rotated.open(sealedBefore, 'ctx')).toBe('before');
    expect(rotated.isStale(sealedBefore)).toBe(true);
    const sealedAfter = rotated.seal('after', 'ctx');
    expect(sealedAfter.keyId).toBe(newKey.id);
    expect(rotated.isStale(sealedAfter)).toBe(false);
  });

  it('says which key is missing when a previous key was dropped too early', () => {
    const oldKey = key();
    const sealed = new SecretBox(keyring(oldKey)).seal('x', 'ctx');
    expect(() => new SecretBox(keyring(key())).open(sealed, 'ctx')).toThrow(oldKey.id);
  });
});

describe('newWebhookSecret', () => {
  it('carries 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(6), 'base64url')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('parseKey', () => {
  it('takes the base64 of 32 bytes and names it by a digest', () => {
    const raw = randomBytes(32);
    const parsed = parseKey(raw.toString('base64'), 'SECRETS_ENCRYPTION_KEY');
    expect(parsed.key.equals(raw)).toBe(true);
    expect(parsed.id).toMatch(/^k_[0-9a-f]{16}$/);
    expect(parsed.id).not.toContain(raw.toString('hex').slice(0, 16));
  });

  it.each([
    ['too short', randomBytes(16).toString('base64')],
    ['not base64', '!'.repeat(44)],
    ['empty', ''],
  ])('refuses a key that is %s, naming the variable', (_, raw) => {
    expect(() => parseKey(raw, 'SECRETS_ENCRYPTION_KEY')).toThrow(EncryptionKeyError);
    expect(() => parseKey(raw, 'SECRETS_ENCRYPTION_KEY')).toThrow('SECRETS_ENCRYPTION_KEY');
  });
});
