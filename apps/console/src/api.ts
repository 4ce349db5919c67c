// The console's one way to the server: JSON to and from /console/api, the session cookie sent by the browser,
// and X-CSRF-Token on every write (docs/console/api.md). Failures become ApiError with a readable sentence.
import { describeError } from './errors';

export const API_BASE = '/console/api';

export type Role = 'owner' | 'developer' | 'viewer' | 'staff';

/** Whose data the session shows: the account's, or its test twin's (docs/adr/0132). */
export type DataMode = 'live' | 'test';

export interface SessionInfo {
  user: { id: string; email: string; role: Role };
  account: { id: string; name: string; tier: string };
  csrf_token: string;
  mode: DataMode;
}

/** `GET /console/api/session-status`: 200 whether or not a session came with the request. */
export type SessionProbe = { signed_in: false } | ({ signed_in: true } & SessionInfo);

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

// The shapes the pages read (docs/console/api.md; /v1's for numbers, calls and money).
/** `test` keys run against the simulated providers and see only test data (docs/adr/0087-test-mode.md). */
export type KeyMode = 'live' | 'test';
export interface ApiKey {
  id: string;
  mode: KeyMode;
  prefix: string;
  ip_allowlist: string[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface CreatedKey {
  id: string;
  key: string;
  mode: KeyMode;
  prefix: string;
  ip_allowlist: string[] | null;
  created_at: string;
  replaces?: string;
}
export interface PhoneNumber {
  id: string;
  phone_number: string;
  business_phone: string;
  status: 'active' | 'past_due' | 'released';
  webhook_url: string | null;
  created_at: string;
}
export interface CreatedNumber extends PhoneNumber {
  webhook_secret: string;
}
export interface Page<T> {
  data: T[];
  has_more: boolean;
}
export interface Call {
  id: string;
  number_id: string;
  phone_number: string;
  caller: string;
  direction: string;
  status: string;
  outcome: string;
  duration_sec: number;
  started_at: string;
  has_recording: boolean;
  has_transcript: boolean;
}
export interface Transcript {
  call_sid: string;
  turns: { role: string; text: string }[];
}
export interface Delivery {
  event_id: string;
  /** `call.completed`, `webhook.test`, ... */
  event_type: string;
  /** Empty for an event not about a call (`webhook.test`). */
  call_sid: string;
  url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  delivered_at: string;
}
export interface Account {
  id: string;
  name: string;
  tier: string;
  number_limit: number;
  auto_top_up: null | { threshold_cents: number; amount_cents: number };
}
/** `GET /console/api/payment-method`: the card auto-top-up charges (docs/adr/0131). */
export interface PaymentMethod {
  processor: 'stripe' | 'simulated';
  card: { brand: string; last4: string } | null;
}
export interface Balance {
  balance_cents: number;
  tier: string;
  period: string;
  minutes_used: number;
  seconds_used: number;
  minutes_included: number | null;
}
export interface LedgerEntry {
  id: string;
  kind: string;
  reference: string;
  amount_millicents: number;
  balance_after_millicents: number;
  description: string;
  created_at: string;
}
export interface UsageDay {
  date: string;
  calls: number;
  seconds: number;
}
export interface TeamMember {
  id: string;
  email: string;
  role: Role;
  status: 'active' | 'invited';
  created_at: string;
}
export interface InviteInfo {
  email: string;
  role: Role;
  account_name: string;
  expires_at: string;
}

// Lost and found (docs/console/api.md, "Lost and found"; /v1/lostfound's shapes).
export interface DeskLocation {
  id: number;
  name: string;
  hold_days: number;
  public_slug: string;
}
export interface DeskLocations {
  data: DeskLocation[];
  categories: string[];
}
export interface NumberedPage<T> {
  data: T[];
  total: number;
  /** Found items: false when more match than `total` (counted up to 1,000; docs/adr/0089). */
  total_exact?: boolean;
  page: number;
  pages: number;
  per: number;
}
export interface TimelineEntry {
  created_at: string;
  action: string;
  staff_name: string;
  note: string;
}
export interface FoundItem {
  id: number;
  location_id: number;
  category: string;
  description: string;
  color: string;
  found_by: string;
  found_area: string;
  found_date: string;
  storage_ref: string;
  image_url: string;
  status: 'stored' | 'returned' | 'donated' | 'disposed';
  source: string;
  created_at: string;
}
export interface FoundItemDetail extends FoundItem {
  photos: string[];
  timeline: TimelineEntry[];
  hold_until?: string;
}
export interface ClaimMatch {
  found_item_id: number;
  description: string;
  color: string;
  found_area: string;
  found_date: string;
}
export interface Claim {
  id: number;
  location_id: number;
  claimant_name: string;
  claimant_phone: string;
  category: string;
  description: string;
  color: string;
  lost_area: string;
  lost_date: string | null;
  image_url: string;
  status: 'open' | 'reunited';
  source: 'api' | 'web' | 'phone';
  created_at: string;
  has_match: boolean;
  verify_required?: boolean;
  matches?: ClaimMatch[];
}
export interface ClaimText {
  body: string;
  sent_at: string;
}
export interface ClaimDetail extends Claim {
  claimant_email: string;
  proof_note: string;
  photos: string[];
  timeline: TimelineEntry[];
  /** The texts sent to the claimant about this claim, oldest first. */
  texts: ClaimText[];
}
export interface Reunited {
  reunited: boolean;
  claim_id: number;
  found_item_id: number;
  verified: boolean;
}
export interface ClaimantLocation {
  name: string;
  categories: string[];
}
export interface ClaimantFiled {
  received: true;
  message: string;
}
