import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** An AES-256 key and its id. The id is stored beside each ciphertext, so old ciphertexts stay readable. */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export interface EncryptionKeys {
  /** Seals everything new. */
  current: EncryptionKey;
  /** Every key that may open a stored ciphertext (the current one and the previous ones), by id. */
  byId: ReadonlyMap<string, EncryptionKey>;
}

export class EncryptionKeyError extends Error {}

/** `k_` and the first 16 hex digits of SHA-256 over the key: names the key without revealing it. */
export function keyIdOf(key: Buffer): string {
  return `k_${createHash('sha256').update('switchboard/secrets-key-id/').update(key).digest('hex').slice(0, 16)}`;
}

/** A key from its base64 form; exactly 32 bytes, or a clear error naming the variable. */
export function parseKey(raw: string, variable: string): EncryptionKey {
  const trimmed = raw.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || key.length !== 32) {
    throw new EncryptionKeyError(
      `${variable} must be the base64 encoding of 32 random bytes (e.g. \`openssl rand -base64 32\`)`,
    );
  }
  return { id: keyIdOf(key), key };
}

export function keyring(current: EncryptionKey, previous: EncryptionKey[] = []): EncryptionKeys {
  const byId = new Map<string, EncryptionKey>();
  for (const key of [current, ...previous]) byId.set(key.id, key);
  return { current, byId };
}

/**
 * `SECRETS_ENCRYPTION_KEY` (base64 of 32 bytes) seals new secrets; `SECRETS_ENCRYPTION_PREVIOUS_KEYS` (comma-
 * separated, same form) still opens secrets sealed before a rotation. Required in production; elsewhere a key is
 * made once and kept in `DATA_DIR/secrets-encryption-key` (mode 0600), so `npm start` needs no setup.
 */
export function loadEncryptionKeys(
  env: NodeJS.ProcessEnv,
  production: boolean,
): { keys: EncryptionKeys; file: string | undefined } {
  const previous = (env.SECRETS_ENCRYPTION_PREVIOUS_KEYS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => parseKey(entry, 'SECRETS_ENCRYPTION_PREVIOUS_KEYS'));
  const raw = env.SECRETS_ENCRYPTION_KEY?.trim();
  if (raw) return { keys: keyring(parseKey(raw, 'SECRETS_ENCRYPTION_KEY'), previous), file: undefined };
  if (production) throw new EncryptionKeyError('SECRETS_ENCRYPTION_KEY is required when NODE_ENV=production');
  const { key, file } = developmentKey(env.DATA_DIR || '.data');
  return { keys: keyring(key, previous), file };
}

function developmentKey(dataDir: string): { key: EncryptionKey; file: string } {
  const file = join(dataDir, 'secrets-encryption-key');
  if (existsSync(file)) return { key: parseKey(readFileSync(file, 'utf8'), file), file };
  mkdirSync(dataDir, { recursive: true });
  const encoded = randomBytes(32).toString('base64');
  writeFileSync(file, `${encoded}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { key: parseKey(encoded, file), file };
}
