import type { ApiKeyMode, ConsoleRole } from '@switchboard/contracts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by SessionGuard. */
    consoleSession?: ConsoleSessionInfo;
  }
}

/** Who a console request comes from, set by SessionGuard. */
export interface ConsoleSessionInfo {
  /** SHA-256 of the cookie's token: what sign-out deletes. */
  tokenHash: string;
  userId: string;
  accountId: string;
  email: string;
  role: ConsoleRole;
  /** The session's CSRF token (derived from the cookie's token; never stored). */
  csrfToken: string;
  /**
   * `test` while the session works on the account's test twin (docs/adr/0087): `@Caller()` then carries the twin's
   * id; `accountId` stays the live account's (team, invitations, account settings).
   */
  mode: ApiKeyMode;
}

/**
 * The roles that may switch a session to test data (docs/adr/0087): those that read the whole console. Staff see the
 * lost-and-found desk alone (docs/adr/0080) and stay on live data.
 */
export const TEST_MODE_ROLES: readonly ConsoleRole[] = ['owner', 'developer', 'viewer'];

/** The mode a session of this role works in: its stored mode while the role may use it, otherwise live. */
export function modeFor(role: ConsoleRole, stored: string): ApiKeyMode {
  return stored === 'test' && TEST_MODE_ROLES.includes(role) ? 'test' : 'live';
}

// What sign-in, invite acceptance and `GET /console/api/session(-status)` answer: declared in contracts, where the
// console's pages read them too.
export type { ConsoleSessionProbe as SessionProbe, ConsoleSessionView as SessionView } from '@switchboard/contracts';
