import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SealingKeyError, SealingKeyPair } from '@switchboard/messaging';

/**
 * The dispatcher's X25519 key pair, for which numbers-billing seals each webhook secret it answers
 * (docs/adr/0063-sealed-webhook-secrets.md). `WEBHOOK_SEALING_KEY`: base64 of a PKCS#8 DER X25519 private key
 * (`openssl genpkey -algorithm X25519 -outform DER | base64 -w0`), required with `NODE_ENV=production`; elsewhere
 * made once and kept in `DATA_DIR/webhook-sealing-key` (mode 0600), so `npm start` needs no setup. Replicas may
 * share one key or each have their own: every request carries its asker's public key.
 */
export function loadSealingKey(env: NodeJS.ProcessEnv): { key: SealingKeyPair; file: string | undefined } {
  const raw = env.WEBHOOK_SEALING_KEY?.trim();
  if (raw) return { key: parse(raw, 'WEBHOOK_SEALING_KEY'), file: undefined };
  if (env.NODE_ENV === 'production') throw new SealingKeyError('WEBHOOK_SEALING_KEY is required when NODE_ENV=production');
  const dataDir = env.DATA_DIR || '.data';
  const file = join(dataDir, 'webhook-sealing-key');
  if (existsSync(file)) return { key: parse(readFileSync(file, 'utf8'), file), file };
  mkdirSync(dataDir, { recursive: true });
  const key = SealingKeyPair.generate();
  try {
    writeFileSync(file, `${key.toPkcs8()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another dispatcher on the same DATA_DIR wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: parse(readFileSync(file, 'utf8'), file), file };
    throw error;
  }
  chmodSync(file, 0o600);
  return { key, file };
}

function parse(raw: string, source: string): SealingKeyPair {
  try {
    return SealingKeyPair.fromPkcs8(raw);
  } catch (error) {
    throw new SealingKeyError(`${source}: ${(error as Error).message}; expected base64 of a PKCS#8 DER X25519 private key (openssl genpkey -algorithm X25519 -outform DER | base64 -w0)`);
  }
}
