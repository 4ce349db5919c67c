/**
 * The console's session cookie (docs/adr/0066): `sb_session`, HttpOnly (no script reads it), Secure (browsers treat
 * http://127.0.0.1 and http://localhost as secure contexts and keep such cookies there), SameSite=Strict (no other
 * site's page sends it), Path=/console (the public API under /v1 never receives it: it stays cookie-free).
 */
export const SESSION_COOKIE = 'sb_session';
export const SESSION_COOKIE_PATH = '/console';

/** Sessions end after 12 hours without a request, and 7 days after sign-in whatever the activity. */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
export const SESSION_MAX_SECONDS = 7 * 24 * 60 * 60;

const ATTRIBUTES = `Path=${SESSION_COOKIE_PATH}; HttpOnly; Secure; SameSite=Strict`;

export function sessionCookie(token: string, maxAgeSeconds = SESSION_MAX_SECONDS): string {
  return `${SESSION_COOKIE}=${token}; ${ATTRIBUTES}; Max-Age=${maxAgeSeconds}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;
}

/** A session token is 43 base64url characters; anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session token of a `Cookie` header, or undefined. Two `sb_session` cookies (one planted by a sibling
 * sub-domain, say) make the header ambiguous: none is used.
 */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const values = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${SESSION_COOKIE}=`))
    .map((part) => part.slice(SESSION_COOKIE.length + 1));
  if (values.length !== 1) return undefined;
  return TOKEN.test(values[0]) ? values[0] : undefined;
}
