import {
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

/**
 * Secrets that cross the bus sealed for their one recipient (docs/adr/0128-webhook-signatures-secrets-and-listen.md): X25519
 * with a fresh ephemeral key per seal, HKDF-SHA256 to an AES-256-GCM key, the caller's context (e.g. the number
 * id) bound as additional data. Only the holder of the recipient's private key opens it; a copy read off the bus,
 * a log or a trace is useless, and a sealed secret moved to another context does not open.
 *
 * Wire form: `base64url(ephemeral public key (32) | iv (12) | tag (16) | ciphertext)`.
 */
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const INFO = Buffer.from('switchboard/sealed-secret/v1', 'utf8');

export class SealedSecretError extends Error {}

function rawPublicKey(key: KeyObject): Buffer {
  return Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');
}

function publicKeyFromRaw(raw: Buffer): KeyObject {
  if (raw.length !== KEY_BYTES)
    throw new SealedSecretError(`an X25519 public key is ${KEY_BYTES} bytes (got ${raw.length})`);
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: raw.toString('base64url') }, format: 'jwk' });
}

function aesKey(shared: Buffer, ephemeral: Buffer, recipient: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.concat([ephemeral, recipient]), INFO, KEY_BYTES));
}

/** Seals `plaintext` for the holder of `recipientPublicKey` (base64url of the raw 32-byte X25519 key). */
export function sealFor(recipientPublicKey: string, plaintext: string, context: string): string {
  const recipientRaw = Buffer.from(recipientPublicKey, 'base64url');
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralRaw = rawPublicKey(ephemeral.publicKey);
  let shared: Buffer;
  try {
    shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: publicKeyFromRaw(recipientRaw) });
  } catch (error) {
    // A low-order point agrees on nothing (OpenSSL refuses it): not a key anyone holds the private half of.
    if (error instanceof SealedSecretError) throw error;
    throw new SealedSecretError(`not a usable X25519 public key (${(error as Error).message})`);
  }
  const key = aesKey(shared, ephemeralRaw, recipientRaw);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([ephemeralRaw, iv, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * A recipient's key pair, made in memory: its public half goes out with each request, its private half never leaves
 * the process (and is never written anywhere).
 */
export class SealingKeyPair {
  /** base64url of the raw 32-byte public key, as `sealFor` takes it. */
  readonly publicKey: string;
  private readonly publicRaw: Buffer;

  private constructor(private readonly privateKey: KeyObject) {
    this.publicRaw = rawPublicKey(createPublicKey(privateKey));
    this.publicKey = this.publicRaw.toString('base64url');
  }

  static generate(): SealingKeyPair {
    return new SealingKeyPair(generateKeyPairSync('x25519').privateKey);
  }

  open(sealed: string, context: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < KEY_BYTES + IV_BYTES + TAG_BYTES) throw new SealedSecretError('the sealed secret is truncated');
    const ephemeralRaw = raw.subarray(0, KEY_BYTES);
    const key = aesKey(
      diffieHellman({ privateKey: this.privateKey, publicKey: publicKeyFromRaw(ephemeralRaw) }),
      ephemeralRaw,
      this.publicRaw,
    );
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(KEY_BYTES, KEY_BYTES + IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(KEY_BYTES + IV_BYTES, KEY_BYTES + IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(raw.subarray(KEY_BYTES + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SealedSecretError(
        'the sealed secret does not open with this key (sealed for another key or context, or altered)',
      );
    }
  }
}

/**
 * A bounded memo of results keyed by everything they depend on, so a steady stream of deliveries to the same
 * numbers costs a map look-up instead of an X25519 agreement. A changed input (a rotated secret, a new recipient
 * key) is a new key, never the old answer. Past `capacity`, the oldest entries go first.
 */
export class BoundedMemo {
  private readonly entries = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  get(key: string, compute: () => string): string {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const value = compute();
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
