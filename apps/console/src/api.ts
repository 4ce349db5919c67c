// The console's one way to the server: JSON to and from /console/api, the session cookie sent by the browser,
// and X-CSRF-Token on every write (docs/console/api.md). Failures become ApiError with a readable sentence.
import type { AccountView, ApiKeyCreated, ConsoleRole } from '@switchboard/contracts';
import { describeError } from './errors';

export const API_BASE = '/console/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    /** The server's own message (shown when no sentence of ours says it better). */
    readonly serverMessage: string,
    /** What a 400 says about each field it names (`error.field`, or each `; `-separated problem's first word). */
    readonly fields: Record<string, string> | undefined,
    readonly retryAfterSeconds?: number,
  ) {
    super(describeError(status, code, serverMessage, retryAfterSeconds));
    this.name = 'ApiError';
  }
}

let csrfToken: string | undefined;

/** Remembers the token of the session just started or read (sign-in, invite acceptance, GET /session). */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the server says the session is gone (401 not_signed_in), so the app can show the sign-in page. */
let onSignedOut: (() => void) | undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/**
 * The fields a 400 is about, each with its own words: `error.field` when the server names one, else each of the
 * message's `; `-separated problems by its first word when that looks like a field name (`email must be an email
 * address; role must be one of ...`, `ip_allowlist.0 must be ...`, `auto_top_up.amount_cents must not be less than
 * 500`). Undefined when no field is named.
 */
export function fieldsOf(error: { field?: unknown; message?: unknown }): Record<string, string> | undefined {
  if (typeof error.message !== 'string') return undefined;
  if (typeof error.field === 'string' && error.field) return { [error.field]: endSentence(error.message) };
  const fields: Record<string, string> = {};
  for (const problem of error.message.split(/;\s+/)) {
    // `ip_allowlist.0` is about ip_allowlist, `auto_top_up.amount_cents` about amount_cents: the last named part.
    const path = /^([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)\s/.exec(problem)?.[1];
    const name = path
      ?.split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop();
    if (!name) return undefined;
    fields[name] = fields[name] ? `${fields[name]} ${endSentence(problem)}` : endSentence(problem);
  }
  return Object.keys(fields).length ? fields : undefined;
}

function endSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

async function readError(response: Response): Promise<ApiError> {
  let code = 'unknown';
  let message = '';
  let fields: Record<string, string> | undefined;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
    if (body.error) {
      code = typeof body.error.code === 'string' ? body.error.code : code;
      message = typeof body.error.message === 'string' ? body.error.message : '';
      if (response.status === 400) fields = fieldsOf(body.error);
    }
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    code,
    message,
    fields,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

/**
 * A fresh `Idempotency-Key` (128 random bits as hex). getRandomValues works on plain http too, where
 * crypto.randomUUID is missing outside secure contexts.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export function api<T>(
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  return send<T>(API_BASE, method, path, body, extraHeaders);
}

/**
 * The claimant page's API (`/claim/api`, docs/adr/0078): no session, no CSRF token (it has no cookie to protect),
 * the same envelope and the same errors.
 */
export const CLAIM_API_BASE = '/claim/api';
export function claimApi<T>(
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  return send<T>(CLAIM_API_BASE, method, path, body, extraHeaders);
}

async function send<T>(
  base: string,
  method: string,
  path: string,
  body: unknown,
  extraHeaders: Record<string, string>,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (base === API_BASE && method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network', '', undefined);
  }
  if (!response.ok) {
    const error = await readError(response);
    if (base === API_BASE && error.status === 401 && error.code === 'not_signed_in') onSignedOut?.();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
  api<T>('POST', path, body ?? {}, headers);
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, body);
export const patch = <T>(path: string, body: unknown, headers?: Record<string, string>) =>
  api<T>('PATCH', path, body, headers);
export const del = <T>(path: string) => api<T>('DELETE', path);

/** `?a=1&b=2` from the defined values only ('' when none). */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

// The shapes the pages read are the API's own (`import type` from @switchboard/contracts: the types the gateway's
// /console/api controllers answer with; see tsconfig.json). The few below are declared by the gateway itself, in
// files an app cannot import (apps never import each other), so they are kept here, built on the contracts' types
// where there is one.

/** `GET /console/api/account`: the gateway's ConsoleAccountView, the account's fields the console shows. */
export type ConsoleAccount = Pick<AccountView, 'id' | 'name' | 'tier' | 'number_limit' | 'auto_top_up'>;

/** `GET /console/api/keys`' entries (KeyListing in the gateway's api-keys service): no secret, with its use. */
export interface ConsoleKey extends Omit<ApiKeyCreated, 'key'> {
  prefix: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The key this one was made to replace (`POST /console/api/keys/{id}/rotate`). */
  replaces: string | null;
}

/** `POST /console/api/keys` and `/keys/{id}/rotate` (CreatedKey in the gateway's api-keys service): the secret, once. */
export interface ConsoleKeyCreated extends ApiKeyCreated {
  prefix: string;
  replaces?: string;
}

/** `POST /console/api/invites/lookup` (the invites service's own answer). */
export interface InviteLookup {
  email: string;
  role: ConsoleRole;
  account_name: string;
  expires_at: string;
}

/** `POST /console/api/password-resets/lookup` (the password-resets service's own answer). */
export interface PasswordResetLookup {
  email: string;
  expires_at: string;
}
