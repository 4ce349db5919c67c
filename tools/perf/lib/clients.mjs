// The operator API and the public API over HTTP (the shared operator contract), and the set-up the benchmarks
// and fault tests share: accounts with keys, numbers with webhook URLs, simulated calls.
import { sleep } from './common.mjs';

export class HttpError extends Error {
  constructor(method, url, status, body) {
    super(`${method} ${url} -> ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

async function call(base, token, method, path, body, { timeoutMs = 30_000, headers = {} } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

async function ok(promise, method, path, expected = [200, 201, 202]) {
  const answer = await promise;
  if (!expected.includes(answer.status)) throw new HttpError(method, path, answer.status, answer.body);
  return answer.body;
}

/** The operator API (`/admin`, ADMIN_TOKEN). */
export class Admin {
  constructor(system) {
    this.base = system.adminUrl;
    this.token = system.adminToken;
  }

  raw(method, path, body, options) {
    return call(this.base, this.token, method, path, body, options);
  }

  createAccount({ name = 'Bench Co', balance_cents = 100_000, tier = 'scale' } = {}) {
    return ok(this.raw('POST', '/admin/accounts', { name, balance_cents, tier }), 'POST', '/admin/accounts');
  }

  updateAccount(id, patch) {
    return ok(this.raw('PATCH', `/admin/accounts/${id}`, patch), 'PATCH', `/admin/accounts/${id}`);
  }

  getAccount(id) {
    return ok(this.raw('GET', `/admin/accounts/${id}`), 'GET', `/admin/accounts/${id}`);
  }

  createKey(accountId) {
    return ok(this.raw('POST', `/admin/accounts/${accountId}/api-keys`, {}), 'POST', 'api-keys');
  }

  setStock(areaCode, available) {
    return ok(this.raw('PUT', `/admin/provider/stock/${areaCode}`, { available }), 'PUT', 'stock');
  }

  /** 202 `{ call_sid }`; throws HttpError otherwise. */
  injectCall(body, options) {
    return ok(this.raw('POST', '/admin/provider/calls', body, options), 'POST', '/admin/provider/calls', [202]);
  }

  deliveries(numberId) {
    return ok(
      this.raw('GET', `/admin/webhook-deliveries?number_id=${encodeURIComponent(numberId)}&limit=1000`),
      'GET',
      'webhook-deliveries',
    );
  }

  /** Every ledger entry of an account (all cursor pages). */
  async ledger(accountId) {
    const entries = [];
    let after;
    for (;;) {
      const page = await ok(
        this.raw(
          'GET',
          `/admin/accounts/${accountId}/ledger?limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`,
        ),
        'GET',
        'ledger',
      );
      entries.push(...page.data);
      if (!page.has_more || page.data.length === 0) return entries;
      after = page.data.at(-1).id;
    }
  }
}

/** The public API (`/v1`) with one account's key. */
export class Api {
  constructor(system, key) {
    this.base = `${system.publicUrl}/v1`;
    this.key = key;
  }

  raw(method, path, body, options) {
    return call(this.base, this.key, method, path, body, options);
  }

  provision(body, options) {
    return this.raw('POST', '/numbers', body, options);
  }

  /** Every item of a cursor-paged list (`/numbers`, `/calls`). */
  async all(path) {
    const items = [];
    let after;
    for (;;) {
      const sep = path.includes('?') ? '&' : '?';
      const page = await ok(
        this.raw('GET', `${path}${sep}limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`),
        'GET',
        path,
      );
      items.push(...page.data);
      if (!page.has_more || page.data.length === 0) return items;
      after = page.data.at(-1).id;
    }
  }
}

/** Runs `task(item, index)` over `items` with at most `concurrency` at once; returns the results in order. */
export async function pool(items, concurrency, task) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

/** Retries `fn` while it throws, up to `attempts` times, waiting `delayMs` between tries. */
export async function retry(fn, { attempts = 5, delayMs = 500 } = {}) {
  for (let i = 1; ; i += 1) {
    try {
      return await fn();
    } catch (error) {
      if (i >= attempts) throw error;
      await sleep(delayMs);
    }
  }
}

let callerSeq = 0;
/** A US caller number that passes E.164 validation (555-01xx is reserved for fiction, 415 is a real area). */
export function callerNumber() {
  callerSeq = (callerSeq + 1) % 10_000;
  return `+1415867${String(callerSeq).padStart(4, '0')}`;
}

/**
 * Accounts with one key and up to three numbers each (the velocity limit: 3 provisions per hour per account),
 * `numbers` in all, in area code `area`. `webhookUrl(accountIndex, numberIndex)` gives each number's URL.
 * Returns [{ account, key, api, numbers: [{ id, phone_number, webhook_url, webhook_secret }] }].
 */
export async function provisionFleet(
  system,
  {
    numbers,
    perAccount = 3,
    area = '415',
    webhookUrl,
    balanceCents = 1_000_000,
    tier = 'scale',
    concurrency = 16,
    name = 'Bench',
  },
) {
  const admin = new Admin(system);
  await admin.setStock(area, numbers + 100);
  const accounts = Math.ceil(numbers / perAccount);
  return pool(
    Array.from({ length: accounts }, (_, i) => i),
    concurrency,
    async (a) => {
      const account = await retry(() =>
        admin.createAccount({ name: `${name} ${a}`, balance_cents: balanceCents, tier }),
      );
      const key = await retry(() => admin.createKey(account.id));
      const api = new Api(system, key.key);
      const count = Math.min(perAccount, numbers - a * perAccount);
      const owned = [];
      for (let n = 0; n < count; n += 1) {
        const body = {
          business_phone: `+1${area}555${String(1000 + ((a * perAccount + n) % 9000)).padStart(4, '0')}`,
          area_code: area,
        };
        const url = webhookUrl?.(a, n);
        if (url) body.webhook_url = url;
        const idempotency = { headers: { 'idempotency-key': `fleet-${system.prefix}-${a}-${n}` } };
        const created = await retry(async () => {
          const answer = await api.provision(body, idempotency);
          if (answer.status !== 201) throw new HttpError('POST', '/v1/numbers', answer.status, answer.body);
          return answer.body;
        });
        owned.push({
          id: created.id,
          phone_number: created.phone_number,
          webhook_url: created.webhook_url,
          webhook_secret: created.webhook_secret,
          account_id: account.id,
        });
      }
      return { account, key, api, numbers: owned };
    },
  );
}

/**
 * The API benchmarks' account: one key and 3 numbers (`provisionFleet`), and with `calls` 25 calls of theirs listed,
 * so that GET /v1/calls answers a full page as GET /v1/numbers does. Returns { key, numbers, api }.
 */
export async function apiAccount(system, { name, calls = true }) {
  const [{ key, numbers }] = await provisionFleet(system, { numbers: 3, name });
  const api = new Api(system, key.key);
  if (calls) {
    const admin = new Admin(system);
    await sleep(500); // number.provisioned reaches calls-media's directory
    await pool(
      Array.from({ length: 25 }, (_, i) => i),
      5,
      (i) =>
        admin.injectCall({
          to: numbers[i % 3].phone_number,
          caller: callerNumber(),
          duration_sec: 30 + i,
          outcome: 'order',
        }),
    );
    for (let i = 0; i < 50 && (await api.all('/calls')).length < 25; i += 1) await sleep(200);
  }
  return { key, numbers, api };
}
