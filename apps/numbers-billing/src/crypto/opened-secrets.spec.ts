import { randomBytes } from 'node:crypto';
import { keyIdOf, keyring, type EncryptionKey } from './encryption-keys';
import { OpenedSecrets } from './opened-secrets';
import { SecretBox, SecretBoxError } from './secret-box';

function key(): EncryptionKey {
  const raw = randomBytes(32);
  return { id: keyIdOf(raw), key: raw };
}

describe('OpenedSecrets', () => {
  it('opens a sealed secret once, then answers from memory', () => {
    const box = new SecretBox(keyring(key()));
    const open = jest.spyOn(box, 'open');
    const cache = new OpenedSecrets(box);
    const sealed = box.seal('s3cret', 'numbers.webhook_secret:num_1');
    expect(cache.open(sealed, 'numbers.webhook_secret:num_1')).toBe('s3cret');
    expect(cache.open({ ...sealed }, 'numbers.webhook_secret:num_1')).toBe('s3cret');
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('answers a secret sealed anew with the new secret, never the one opened before', () => {
    const box = new SecretBox(keyring(key()));
    const cache = new OpenedSecrets(box);
    expect(cache.open(box.seal('first', 'ctx'), 'ctx')).toBe('first');
    expect(cache.open(box.seal('second', 'ctx'), 'ctx')).toBe('second');
  });

  it('answers the same secret sealed again with a new key (a rotation) by opening it with that key', () => {
    const oldKey = key();
    const newKey = key();
    const sealedBefore = new SecretBox(keyring(oldKey)).seal('same', 'ctx');
    const rotated = new SecretBox(keyring(newKey, [oldKey]));
    const cache = new OpenedSecrets(rotated);
    expect(cache.open(sealedBefore, 'ctx')).toBe('same');
    const open = jest.spyOn(rotated, 'open');
    const sealedAfter = rotated.seal('same', 'ctx');
    expect(cache.open(sealedAfter, 'ctx')).toBe('same');
    expect(open).toHaveBeenCalledWith(sealedAfter, 'ctx');
  });

  it('does not open a ciphertext opened for one number for another, and keeps no failure', () => {
    const box = new SecretBox(keyring(key()));
    const cache = new OpenedSecrets(box);
    const sealed = box.seal('s3cret', 'numbers.webhook_secret:num_1');
    expect(cache.open(sealed, 'numbers.webhook_secret:num_1')).toBe('s3cret');
    expect(() => cache.open(sealed, 'numbers.webhook_secret:num_2')).toThrow(SecretBoxError);
    expect(() => cache.open(sealed, 'numbers.webhook_secret:num_2')).toThrow(SecretBoxError);
    expect(cache.size).toBe(1);
  });

  it('keeps at most its capacity, dropping the entries opened first', () => {
    const box = new SecretBox(keyring(key()));
    const cache = new OpenedSecrets(box, 2);
    const sealed = ['a', 'b', 'c'].map((s) => box.seal(s, 'ctx'));
    for (const s of sealed) cache.open(s, 'ctx');
    expect(cache.size).toBe(2);
    const open = jest.spyOn(box, 'open');
    expect(cache.open(sealed[2], 'ctx')).toBe('c');
    expect(open).not.toHaveBeenCalled();
    expect(cache.open(sealed[0], 'ctx')).toBe('a');
    expect(open).toHaveBeenCalledTimes(1);
  });
});
