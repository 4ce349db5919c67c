// HTTPS to the cluster's two gateways, as a client in front of replicas does: requests spread over both, a request
// that reached no replica (connection refused) goes to the other one, and a retryable answer (503 with Retry-After)
// is retried after the time it asks. Every answer is recorded, so the run can hold the system to its rule: no 5xx
// other than 503 with Retry-After, and no answer a client could not act on.
import { request as httpsRequest, Agent } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

/** What every answer was, per phase of the run. */
export class AnswerLog {
  constructor() {
    this.phase = 'setup';
    /** phase -> { 'STATUS' | 'network:CODE' -> count } */
    this.byPhase = {};
    /** Answers that break the rule: a 5xx other than 503, a 503 without Retry-After. */
    this.violations = [];
    /** 4xx answers to requests the load expected to succeed (a non-retryable error). */
    this.unexpected = [];
  }

  count(key) {
    const phase = (this.byPhase[this.phase] ??= {});
    phase[key] = (phase[key] ?? 0) + 1;
  }

  answer(method, path, replica, answer) {
    this.count(String(answer.status));
    const retryAfter = answer.headers['retry-after'];
    if (answer.status >= 500 && (answer.status !== 503 || !retryAfter)) {
      this.violations.push({
        phase: this.phase,
        at: new Date().toISOString(),
        request: `${method} ${path.replace(/\?.*/, '')}`,
        replica,
        status: answer.status,
        retry_after: retryAfter ?? null,
        body: JSON.stringify(answer.body).slice(0, 300),
      });
    }
  }

  networkError(code) {
    this.count(`network:${code}`);
  }

  unexpectedAnswer(what, answer) {
    this.unexpected.push({
      phase: this.phase,
      what,
      status: answer.status,
      body: JSON.stringify(answer.body).slice(0, 300),
    });
  }
}

/** Whether the request certainly never reached a server, so sending it elsewhere cannot do it twice. */
function neverReached(error) {
  return error.code === 'ECONNREFUSED';
}

export class ClusterClient {
  constructor({ ca, publicUrls, adminUrls, adminToken, log }) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 48, ca });
    this.publicUrls = publicUrls;
    this.adminUrls = adminUrls;
    this.adminToken = adminToken;
    this.log = log;
    this.next = 0;
  }

  /** One request to one base URL. Resolves { status, headers, body }; rejects with the socket's error code. */
  once(base, method, path, { body, headers = {}, timeoutMs = 30_000 } = {}) {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        `${base}${path}`,
        {
          method,
          agent: this.agent,
          timeout: timeoutMs,
          headers: {
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // Not JSON: kept as text.
            }
            resolve({ status: res.statusCode, headers: res.headers, body: parsed });
          });
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.on('error', (error) => reject(Object.assign(error, { code: error.code ?? 'ERROR' })));
      req.end(payload);
    });
  }

  /**
   * A request to the cluster. `side`: 'public' (with `key`) or 'admin'. `safe`: the request may be repeated
   * without doing its work twice (a read, or a POST with an Idempotency-Key): then a connection that broke mid-way
   * and a 503 are retried too; otherwise only a connection that was refused is. Resolves the last answer, or
   * { status: 0, error } when no replica answered in `deadlineMs`.
   */
  async send(side, method, path, { key, body, headers = {}, safe = method === 'GET', deadlineMs = 120_000 } = {}) {
    const bases = side === 'admin' ? this.adminUrls : this.publicUrls;
    const auth = { authorization: `Bearer ${side === 'admin' ? this.adminToken : key}` };
    const prefix = side === 'admin' ? '' : '/v1';
    const started = Date.now();
    let attempt = 0;
    for (;;) {
      const base = bases[(this.next += 1) % bases.length];
      attempt += 1;
      try {
        const answer = await this.once(base, method, `${prefix}${path}`, { body, headers: { ...auth, ...headers } });
        this.log.answer(method, `${prefix}${path}`, base, answer);
        // 503 with Retry-After: try again later. 409 idempotency_key_in_use: an earlier attempt with this key (its
        // connection broke, its gateway died) still holds the key's lease; the answer says for how long.
        const retryable =
          (answer.status === 503 && answer.headers['retry-after']) ||
          (answer.status === 409 && answer.body?.error?.code === 'idempotency_key_in_use');
        if (!(retryable && safe) || Date.now() - started > deadlineMs) return { ...answer, attempts: attempt };
        await sleep(Math.min(Number(answer.headers['retry-after']) || 1, 5) * 1000);
      } catch (error) {
        this.log.networkError(error.code);
        if (!(safe || neverReached(error)) || Date.now() - started > deadlineMs) {
          return { status: 0, error: error.code, headers: {}, body: undefined, attempts: attempt };
        }
        await sleep(Math.min(200 * attempt, 2000));
      }
    }
  }

  /** Every item of a cursor-paged list (`/calls`, `/numbers`, an account's ledger). */
  async all(side, path, { key } = {}) {
    const items = [];
    let after;
    let last;
    for (;;) {
      const sep = path.includes('?') ? '&' : '?';
      const page = await this.send(
        side,
        'GET',
        `${path}${sep}limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`,
        { key },
      );
      if (page.status !== 200) throw new Error(`GET ${path}: ${page.status} ${JSON.stringify(page.body)}`);
      items.push(...page.body.data);
      last = page.body;
      if (!page.body.has_more || page.body.data.length === 0) return { items, last };
      after = page.body.data.at(-1).id;
    }
  }

  close() {
    this.agent.destroy();
  }
}
