import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi';

export type Schemas = components['schemas'];
export type SwitchboardClient = Client<paths>;

export interface SwitchboardClientOptions {
  /** The API's origin, e.g. `https://api.switchboard.example` (the paths carry `/v1`). */
  baseUrl: string;
  /** An API key, `sk_live_...`. */
  apiKey: string;
  /** Retries of a request answered 429, 502, 503 or 504, or that got no answer (default 2). */
  maxRetries?: number;
  /** The first wait between retries when the answer has no `Retry-After`; it doubles (default 500 ms). */
  retryBaseMs?: number;
  /** The longest wait honoured, `Retry-After` included (default 30 s). */
  maxRetryDelayMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const WRITE_METHODS = new Set(['POST', 'PATCH']);

/**
 * A typed client for the public API: `client.GET('/v1/numbers')`, `client.POST('/v1/numbers', { body })`, with
 * paths, parameters, bodies and answers typed from the OpenAPI description (openapi-fetch). Every POST and PATCH
 * gets an `Idempotency-Key` (a random one unless the call sets its own), so a retry after a lost answer or a 503
 * never does the work twice; 429, 502, 503, 504 and network failures are retried, honouring `Retry-After`.
 */
export function createSwitchboardClient(options: SwitchboardClientOptions): SwitchboardClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options),
  });
}

/** A fetch that adds an Idempotency-Key to writes and retries what may succeed later. */
export function retryingFetch(
  options: Pick<SwitchboardClientOptions, 'maxRetries' | 'retryBaseMs' | 'maxRetryDelayMs' | 'fetch'>,
): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 2;
  const baseMs = options.retryBaseMs ?? 500;
  const maxDelayMs = options.maxRetryDelayMs ?? 30_000;
  const send = options.fetch ?? globalThis.fetch;
  return async (input: Request) => {
    let request = input;
    if (WRITE_METHODS.has(request.method) && !request.headers.has('idempotency-key')) {
      const headers = new Headers(request.headers);
      headers.set('idempotency-key', randomUUID());
      request = new Request(request, { headers });
    }
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (error) {
        if (last) throw error;
        await sleep(Math.min(baseMs * 2 ** attempt, maxDelayMs));
        continue;
      }
      if (last || !RETRYABLE_STATUSES.has(response.status)) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? baseMs * 2 ** attempt;
      await response.body?.cancel();
      await sleep(Math.min(wait, maxDelayMs));
    }
  };
}

/** `Retry-After` in milliseconds: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(at - now, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
