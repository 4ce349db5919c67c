import { BoundedMemo, SealedSecretError, SealingKeyPair, sealFor } from './sealed-secret';

describe('sealed secrets', () => {
  const recipient = SealingKeyPair.generate();

  it("opens only for the recipient's private key and the context it was sealed under", () => {
    const sealed = sealFor(recipient.publicKey, 'whsec_abc', 'webhook-target:num_1');
    expect(sealed).not.toContain('whsec_abc');
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('whsec_abc');
    expect(recipient.open(sealed, 'webhook-target:num_1')).toBe('whsec_abc');
    expect(() => recipient.open(sealed, 'webhook-target:num_2')).toThrow(SealedSecretError);
    expect(() => SealingKeyPair.generate().open(sealed, 'webhook-target:num_1')).toThrow(SealedSecretError);
    const altered = Buffer.from(sealed, 'base64url');
    altered[altered.length - 1] ^= 1;
    expect(() => recipient.open(altered.toString('base64url'), 'webhook-target:num_1')).toThrow(SealedSecretError);
  });

  it('seals the same secret differently each time (a fresh ephemeral key and IV)', () => {
    expect(sealFor(recipient.publicKey, 's', 'c')).not.toBe(sealFor(recipient.publicKey, 's', 'c'));
  });

  it('refuses to seal for something that is not a usable public key', () => {
    expect(() => sealFor(Buffer.alloc(31).toString('base64url'), 's', 'c')).toThrow(SealedSecretError);
    expect(() => sealFor(Buffer.alloc(32).toString('base64url'), 's', 'c')).toThrow(SealedSecretError);
  });

  it('memoizes by key, computing once, and drops the oldest entry past its capacity', () => {
    const memo = new BoundedMemo(2);
    let computed = 0;
    const compute = (value: string) => () => ((computed += 1), value);
    expect(memo.get('a', compute('A'))).toBe('A');
    expect(memo.get('a', compute('other'))).toBe('A');
    memo.get('b', compute('B'));
    memo.get('c', compute('C'));
    expect(memo.size).toBe(2);
    expect(memo.get('a', compute('A2'))).toBe('A2');
    expect(computed).toBe(4);
  });
});
