/**
 * Every failure of this library names the app it concerns, so a log line from a service that fails at
 * start says which database and which setting to look at.
 */
export class PersistenceError extends Error {
  override readonly name = 'PersistenceError';

  constructor(
    readonly appName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`[${appName}] ${message}`, options);
  }
}

/** The readable part of whatever was thrown (engine errors carry a `code` and a multi-line message). */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    let message = error.message.trim();
    if (!message && error instanceof AggregateError) {
      message = error.errors.map(describeError).join('; ');
    }
    if (!message) message = error.name;
    return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
  }
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String(error.message);
  }
  return String(error);
}
