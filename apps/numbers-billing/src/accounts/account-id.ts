import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `acct_` and 20 base-36 characters (~103 bits): unguessable, URL-safe, easy to read aloud. */
export function newAccountId(): string {
  const bytes = randomBytes(20);
  let id = 'acct_';
  for (const byte of bytes) id += ALPHABET[byte % 36];
  return id;
}
