import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** An account id of the form numbers-billing issues (lostfound only ever sees ids). */
export function newAccountId(): string {
  let id = 'acct_';
  for (const byte of randomBytes(20)) id += ALPHABET[byte % 36];
  return id;
}
