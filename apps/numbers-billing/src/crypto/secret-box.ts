import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKeys } from './encryption-keys';

/** A secret sealed at rest: the id of the key that sealed it, and `base64url(iv | tag | ciphertext)`. */
export interface SealedSecret {
  keyId: string;
  ciphertext: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

/**
 * AES-256-GCM with a fresh 96-bit IV per seal. `context` is bound as additional authenticated data (e.g. the
 * number id), so a ciphertext copied onto another row does not open.
 */
export class SecretBox {
  constructor(private readonly keys: EncryptionKeys) {}

  get currentKeyId(): string {
    return this.keys.current.id;
  }

  seal(plaintext: string, context: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      keyId: this.keys.current.id,
      ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'),
    };
  }

  open(sealed: SealedSecret, context: string): string {
    const key = this.keys.byId.get(sealed.keyId);
    if (!key)
      throw new SecretBoxError(
        `no encryption key with id ${sealed.keyId} is configured (was it removed from SECRETS_ENCRYPTION_PREVIOUS_KEYS?)`,
      );
    const raw = Buffer.from(sealed.ciphertext, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('the ciphertext is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('the ciphertext does not open with its key (tampered, or sealed for another row)');
    }
  }

  /** True when the secret was sealed with an older key and should be sealed again with the current one. */
  isStale(sealed: SealedSecret): boolean {
    return sealed.keyId !== this.keys.current.id;
  }
}

/** A webhook secret: 32 random bytes (256 bits), `whsec_` and base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
