/**
 * Whether an error means the database cannot be reached right now (down, restarting, refusing connections, out
 * of connections), as opposed to a bug or a rejected statement. Such a failure is an outage: the service answers
 * 503 `service_unavailable` (retryable) instead of 500, and logs it once per incident.
 *
 * Recognised wherever it sits in the chain of causes: Prisma's driver adapter errors (`meta.driverAdapterError`),
 * `pg` errors and socket errors, and Prisma's own connection error codes.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someInErrorChain(error, isOutageSignature);
}

/**
 * Whether PostgreSQL refused the statement with `sqlState`, through `pg` (`code`) or Prisma (its driver adapter's
 * `{ kind: 'postgres', code }`), wherever the error sits in the chain of causes.
 */
export function hasSqlState(error: unknown, sqlState: string): boolean {
  return someInErrorChain(error, (current) => current.code === sqlState);
}

/** `test` on the error and on each of its causes (`cause`, Prisma's `meta.driverAdapterError`, `errors`). */
function someInErrorChain(error: unknown, test: (error: ErrorLike) => boolean): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (test(current)) return true;
    const { cause, meta, errors } = current as ErrorLike;
    pending.push(cause, meta?.driverAdapterError);
    if (Array.isArray(errors)) pending.push(...(errors as unknown[]));
  }
  return false;
}

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/** Driver adapter error kinds (`@prisma/driver-adapter-utils`) that mean no connection. */
const UNREACHABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'DatabaseDoesNotExist',
]);

/** Prisma's codes for "cannot reach", "timed out", "server closed the connection", "no pool connection in time". */
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);

/** Socket errors of a connection attempt or of a connection that broke. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-57P03 (terminated by an administrator, crash
 * shutdown, cannot connect now), 53300 (too many connections), 3D000 (no such database), and 55000 only as
 * "not currently accepting connections" (the rest of 55000 is a statement's fault).
 */
function isOutageSqlState(code: string, message: string): boolean {
  if (code.startsWith('08') && code.length === 5) return true;
  if (code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || code === '3D000') return true;
  return code === '55000' && message.includes('not currently accepting connections');
}

/** `pg`'s messages for a connection that ended or could not be had in time (they carry no code). */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  "Can't reach database server",
];

function isOutageSignature(error: ErrorLike): boolean {
  const message = typeof error.message === 'string' ? error.message : '';
  if (typeof error.kind === 'string') {
    if (UNREACHABLE_KINDS.has(error.kind)) return true;
    // An adapter's plain PostgreSQL error: `{ kind: 'postgres', code, message }`.
    if (error.kind === 'postgres' && typeof error.code === 'string') return isOutageSqlState(error.code, message);
  }
  if (typeof error.code === 'string') {
    if (PRISMA_CONNECTION_CODES.has(error.code) || SOCKET_CODES.has(error.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(error.code) && isOutageSqlState(error.code, message)) return true;
  }
  return PG_CONNECTION_MESSAGES.some((text) => message.includes(text));
}
