import type { HttpAnswer, JsonBody } from './session';
import type { RunningSystem } from './system';

/** The `Set-Cookie` of an answer, as one string (empty when none). */
export function setCookieOf(headers: Headers): string {
  return headers.getSetCookie().join('\n');
}

/** The session token a `Set-Cookie` gives, if any. */
export function sessionTokenFrom(headers: Headers): string | undefined {
  return /sb_session=([A-Za-z0-9_-]+)/.exec(setCookieOf(headers))?.[1];
}

/**
 * A browser on the console (after novu's UserSession): keeps the `sb_session` cookie and the CSRF token, and
 * sends both as the console's own pages do. `csrf: false` leaves the header out; `headers` adds or overrides.
 */
export class ConsoleClient {
  cookie: string | undefined;
  csrf: string | undefined;

  constructor(readonly system: RunningSystem) {}

  async request<T = JsonBody>(
    method: string,
    path: string,
    body?: unknown,
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookie) headers.cookie = `sb_session=${this.cookie}`;
    if (this.csrf && options.csrf !== false && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`${this.system.publicUrl}/console/api${path}`, {
      method,
      headers: { ...headers, ...options.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    const token = sessionTokenFrom(response.headers);
    if (token !== undefined) this.cookie = token;
    else if (/sb_session=;/.test(setCookieOf(response.headers))) this.cookie = undefined;
    const csrf = (parsed as { csrf_token?: unknown } | undefined)?.csrf_token;
    if (typeof csrf === 'string') this.csrf = csrf;
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = JsonBody>(path: string, options?: { headers?: Record<string, string> }): Promise<HttpAnswer<T>> {
    return this.request<T>('GET', path, undefined, options);
  }

  post<T = JsonBody>(
    path: string,
    body?: unknown,
    options?: { csrf?: boolean; headers?: Record<string, string> },
  ): Promise<HttpAnswer<T>> {
    return this.request<T>('POST', path, body ?? {}, options);
  }

  async signIn(email: string, password: string): Promise<HttpAnswer> {
    return this.post('/sign-in', { email, password });
  }
}
