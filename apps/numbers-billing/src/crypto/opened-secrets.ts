import type { SealedSecret, SecretBox } from './secret-box';

/**
 * Secrets already opened, so that a look-up made for every delivery (the dispatcher's webhook target) does not
 * run AES-GCM each time. Keyed on everything the plaintext depends on: the context (which binds the ciphertext
 * to its number), the key id and the ciphertext itself. A secret sealed anew (another secret, or the same one
 * sealed again with the current key after a rotation) has another ciphertext, so it is a new entry and never the
 * old one's answer; the caller reads the stored row every time, so the cache can only answer for what the row
 * says now. A key's material never changes in a running process. Failures are not kept. Bounded: past
 * `capacity`, the entries opened first are dropped first.
 */
export class OpenedSecrets {
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly box: SecretBox,
    private readonly capacity = 10_000,
  ) {}

  open(sealed: SealedSecret, context: string): string {
    const key = `${context}\n${sealed.keyId}\n${sealed.ciphertext}`;
    const known = this.opened.get(key);
    if (known !== undefined) return known;
    const secret = this.box.open(sealed, context);
    if (this.opened.size >= this.capacity) this.opened.delete(this.opened.keys().next().value as string);
    this.opened.set(key, secret);
    return secret;
  }

  get size(): number {
    return this.opened.size;
  }
}
