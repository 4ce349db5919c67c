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
   * `test` while the session works on the account's test twin (docs/adr/0132): `@Caller()` then carries the twin's
   * id; `accountId` stays the live account's (team, invitations, account settings).
   */
  mode: ApiKeyMode;
}

/** What sign-in, invite acceptance and `GET /console/api/session` answer. */
export interface SessionView {
  user: { id: string; email: string; role: ConsoleRole };
  account: { id: string; name: string; tier: string };
  csrf_token: string;
  /** `live`, or `test` while the session shows the account's test data (docs/adr/0132). */
  mode: ApiKeyMode;
}

/** `GET /console/api/session-status`: whether a live session came with the request, and if so the session. */
export type SessionProbe = { signed_in: false } | ({ signed_in: true } & SessionView);
