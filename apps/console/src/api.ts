// The console's one way to the server: its API (/console/api, and the claimant page's /claim/api) through a client typed from the API's OpenAPI
// description (console-api/generated/openapi.ts, written by tools/sdk/generate.mjs from the gateway's
// controllers and DTOs), so a wrong path, parameter or body fails the type check. JSON to and from the server, the
// session cookie sent by the browser, X-CSRF-Token on every write (docs/console/api.md); failures become ApiError with
// a readable sentence.
import createClient, {
  createFinalURL,
  defaultPathSerializer,
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from 'openapi-fetch';
import type { MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { describeError } from './errors';
import type { components, paths } from './console-api/generated/openapi';

/** The API's schemas (its DTOs), by name: `Schemas['CallView']`. */
export type Schemas = components['schemas'];

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

/**
 * A query string of the values given (every query parameter of the API is a string, a number or a boolean): undefined,
 * null and '' (a form's empty field) are left out, as never sent.
 */
function serializeQuery(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (typeof value === 'string' ? value !== '' : typeof value === 'number' || typeof value === 'boolean')
      search.set(key, String(value));
  return search.toString();
}

/**
 * What every request of the console's API goes through: X-CSRF-Token on every write; any answer but a 2xx thrown as
 * ApiError (a 401 `not_signed_in` also tells the app the session is gone), and no answer at all as `network`.
 */
const consoleRules: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken)
      request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
  async onResponse({ response }) {
    if (response.ok) return response;
    const error = await readError(response);
    if (error.status === 401 && error.code === 'not_signed_in') onSignedOut?.();
    throw error;
  },
  onError() {
    return new ApiError(0, 'network', '', undefined);
  },
};

const client = createClient<paths>({
  headers: { accept: 'application/json' },
  credentials: 'same-origin',
  querySerializer: serializeQuery,
});
client.use(consoleRules);

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** openapi-fetch's rule for a call's options (its `InitParam`, not exported): optional when nothing in them is required. */
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** The success answer's body (undefined for a 204): the `data` of openapi-fetch's answer without an error. */
type Answer<Operation, Init> =
  Operation extends Record<string | number, unknown>
    ? Extract<FetchResponse<Operation, Init, MediaType>, { data: unknown }>['data']
    : never;

/** openapi-fetch's call, answering the body itself: failures are thrown (consoleRules), so no `error` is left to read. */
type Call<M extends Method> = <P extends PathsWithMethod<paths, M>, I extends MaybeOptionalInit<paths[P], M>>(
  path: P,
  ...init: InitParam<I>
) => Promise<Answer<paths[P][M], I>>;

function answering<M extends Method>(method: M): Call<M> {
  // The types are Call<M>'s, checked where a page calls it; at run time the call goes on to openapi-fetch as it is.
  const request = client.request as (method: M, path: string, init?: object) => Promise<{ data?: unknown }>;
  const call = async (path: string, init?: object) => (await request(method, path, init)).data;
  return call as unknown as Call<M>;
}

/**
 * The console's API: `await api.GET('/console/api/numbers/{id}', { params: { path: { id } } })` answers the number,
 * `api.POST('/console/api/keys', { body })` the new key; paths, parameters, bodies and answers typed from the API's
 * description. A failure is thrown as ApiError.
 */
export const api = {
  GET: answering('get'),
  PUT: answering('put'),
  POST: answering('post'),
  PATCH: answering('patch'),
  DELETE: answering('delete'),
};

/** What an address fills in: the path's parameters and the query (headers and cookies are the browser's). */
type AddressParameters<P extends PathsWithMethod<paths, 'get'>> = Pick<
  NonNullable<paths[P]['get']['parameters']>,
  'path' | 'query'
>;

/**
 * The address of a GET the browser makes itself (an audio element's source, a download link, an EventSource), from
 * the same typed paths and parameters as `api`.
 */
export function apiUrl<P extends PathsWithMethod<paths, 'get'>, I extends AddressParameters<P>>(
  path: P,
  ...params: InitParam<I>
): string {
  return createFinalURL(path, {
    baseUrl: '',
    params: params[0] ?? {},
    querySerializer: serializeQuery,
    pathSerializer: defaultPathSerializer,
  });
}
