import * as path from 'node:path';
import { PersistenceError } from './errors.ts';

/** The environment as this library reads it (defaults to `process.env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where an app's data lives: a PostgreSQL URL, or an embedded PGlite directory. */
export type DatabaseLocation =
  | { readonly kind: 'postgres'; readonly url: string; readonly variable: string }
  | { readonly kind: 'pglite'; readonly directory: string };

const APP_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export function assertAppName(appName: string): void {
  if (!APP_NAME.test(appName)) {
    throw new PersistenceError(
      String(appName),
      'app name must be lower kebab case (e.g. "numbers-billing"); it names the database variable and data directory',
    );
  }
}

/** `numbers-billing` -> `NUMBERS_BILLING_DATABASE_URL`. */
export function databaseUrlVariable(appName: string): string {
  assertAppName(appName);
  return `${appName.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
}

/**
 * The app's PostgreSQL URL from `<APP>_DATABASE_URL`, or `undefined` when unset or empty (the app then
 * uses embedded PGlite). A set but malformed value throws: a typo must not silently fall back to PGlite.
 */
export function databaseUrlFor(appName: string, env: Env = process.env): string | undefined {
  const variable = databaseUrlVariable(appName);
  const raw = env[variable]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PersistenceError(
      appName,
      `${variable} is not a valid URL (expected postgres://user:password@host:5432/database)`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new PersistenceError(
      appName,
      `${variable} must be a postgres:// or postgresql:// URL, got "${url.protocol}" (${redactUrl(raw)})`,
    );
  }
  if (!url.hostname) {
    throw new PersistenceError(appName, `${variable} has no host (${redactUrl(raw)})`);
  }
  if (url.pathname.length <= 1) {
    throw new PersistenceError(appName, `${variable} names no database (${redactUrl(raw)})`);
  }
  return raw;
}

/** `DATA_DIR/<app>`, absolute; `DATA_DIR` defaults to `.data`, relative to the working directory. */
export function dataDirFor(appName: string, env: Env = process.env): string {
  assertAppName(appName);
  return path.resolve(env.DATA_DIR?.trim() || '.data', appName);
}

export function databaseLocationFor(appName: string, env: Env = process.env): DatabaseLocation {
  const url = databaseUrlFor(appName, env);
  if (url !== undefined) return { kind: 'postgres', url, variable: databaseUrlVariable(appName) };
  return { kind: 'pglite', directory: dataDirFor(appName, env) };
}

/** A URL safe to log: the password is replaced. Unparseable input is not echoed at all. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparseable URL>';
  }
}

export function describeLocation(location: DatabaseLocation): string {
  return location.kind === 'postgres' ? `PostgreSQL ${redactUrl(location.url)}` : `PGlite ${location.directory}`;
}
