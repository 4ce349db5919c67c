import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The console's bearer secrets (session cookies, invite and password reset tokens): 32 random bytes, base64url (256 bits, well over
 * the 128 the issue asks for). Only their SHA-256 is stored, so a copy of the database signs no one in; a slow
 * hash adds nothing to a secret with that much entropy.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Ids shown to people and used in paths: `usr_<24 hex>`, `inv_<24 hex>`; `pwr_<24 hex>` for password resets. */
export function newId(prefix: 'usr' | 'inv' | 'pwr'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed by the session's own secret. It is bound to the
 * session (another session's token does not fit), needs no storage, and cannot be computed from what the database
 * keeps (the hash of the session secret), nor read by another site (the cookie is HttpOnly and SameSite=Strict).
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('switchboard console csrf v1').digest('base64url');
}

/** Constant-time comparison of two strings (false for different lengths). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
