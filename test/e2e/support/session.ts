import type { RunningSystem } from './system';

/** Where a system answers: one booted in Jest's process (startSystem) or one of real processes. */
export type SystemAddresses = Pick<RunningSystem, 'publicUrl' | 'adminUrl' | 'adminToken'>;

/**
 * A JSON answer's body as `response.json()` gives it: tests read and assert on its fields directly (the lint's test
 * exception allows the unsafe reads); a test that wants it checked names its type (`get<Thing>(...)`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one place tests' JSON bodies are untyped
export type JsonBody = any;

export interface HttpAnswer<T = JsonBody> {
  status: number;
  headers: Headers;
  body: T;
}

async function call<T>(url: string, init: RequestInit): Promise<HttpAnswer<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: body as T };
}

function jsonInit(
  method: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** The operator API, with the system's admin token. */
export class AdminClient {
  constructor(private readonly system: SystemAddresses) {}

  request<T = JsonBody>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpAnswer<T>> {
    return call<T>(`${this.system.adminUrl}${path}`, jsonInit(method, this.system.adminToken, body, headers));
  }

  async createAccount(
    body: { name?: string; balance_cents?: number; tier?: string } = {},
  ): Promise<{ id: string; [k: string]: unknown }> {
    const answer = await this.request('POST', '/admin/accounts', { name: 'Test Co', ...body });
    if (answer.status !== 201) throw new Error(`account not created: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async createKey(
    accountId: string,
    ipAllowlist?: string[],
    mode?: 'live' | 'test',
  ): Promise<{ id: string; key: string }> {
    const answer = await this.request('POST', `/admin/accounts/${accountId}/api-keys`, {
      ...(ipAllowlist ? { ip_allowlist: ipAllowlist } : {}),
      ...(mode ? { mode } : {}),
    });
    if (answer.status !== 201) throw new Error(`key not created: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }
}

/**
 * An integrator's session (after novu's UserSession): an account with a balance and an API key, and a client
 * for the public API that sends the key.
 */
export class ApiSession {
  private constructor(
    readonly system: SystemAddresses,
    readonly admin: AdminClient,
    readonly accountId: string,
    readonly keyId: string,
    readonly key: string,
  ) {}

  static async create(
    system: SystemAddresses,
    account: { balance_cents?: number; tier?: string; name?: string } = {},
  ): Promise<ApiSession> {
    const admin = new AdminClient(system);
    const created = await admin.createAccount({ balance_cents: 10_000, ...account });
    const key = await admin.createKey(created.id);
    return new ApiSession(system, admin, created.id, key.id, key.key);
  }

  /** A session with a test key of the same account (docs/adr/0087-test-mode.md); `accountId` is the test twin's. */
  async testMode(): Promise<ApiSession> {
    const key = await this.admin.createKey(this.accountId, undefined, 'test');
    return new ApiSession(
      this.system,
      this.admin,
      `acct_test_${this.accountId.slice('acct_'.length)}`,
      key.id,
      key.key,
    );
  }

  request<T = JsonBody>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpAnswer<T>> {
    return call<T>(`${this.system.publicUrl}/v1${path}`, jsonInit(method, this.key, body, headers));
  }

  get<T = JsonBody>(path: string, headers?: Record<string, string>): Promise<HttpAnswer<T>> {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = JsonBody>(path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpAnswer<T>> {
    return this.request<T>('POST', path, body ?? {}, headers);
  }

  delete<T = JsonBody>(path: string): Promise<HttpAnswer<T>> {
    return this.request<T>('DELETE', path);
  }
}

/** A raw request to the public server (no key unless given in headers). */
export function publicRequest<T = JsonBody>(
  system: SystemAddresses,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer<T>> {
  return call<T>(`${system.publicUrl}${path}`, { method, headers: init.headers, body: init.body });
}
