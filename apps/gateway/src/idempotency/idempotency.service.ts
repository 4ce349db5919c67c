import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RETENTION_MS, ServiceError } from '@switchboard/contracts';
import { IdempotencyRepository, type IdempotencyScope, type StoredBody } from './idempotency.repository';

/** How long a first answer is replayed to retries (the same 24 hours numbers-billing replays a secret in). */
export const IDEMPOTENCY_RETENTION_MS = IDEMPOTENCY_KEY_RETENTION_MS;
/** How long a request in flight holds its key; after that a retry may take the key over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

export interface IdempotentRequest {
  accountId: string;
  /** The `Idempotency-Key` header as sent. */
  key: string;
  method: string;
  /** The request target (e.g. `/v1/numbers`, `/v1/numbers/num_3`). */
  path: string;
  /** The validated body. */
  body: unknown;
}

export interface IdempotentRoute<T extends object> {
  /** Runs the request the first time. */
  run(): Promise<T>;
  /** The HTTP status of a successful answer (kept with it). */
  status: number;
  /** Fields of the answer never stored here (secrets): a replay gets them from `restore`. */
  secretFields?: (keyof T & string)[];
  /** Completes a stored answer that had secret fields removed (the owning service answers them again). */
  restore?(stored: Partial<T>): Promise<T>;
  /** Told when the answer is a replay of a stored one (the HTTP layer marks it `Idempotent-Replayed: true`). */
  onReplay?(): void;
}

/**
 * The `Idempotency-Key` of the public API: the first answer to a key is replayed to every retry with the same
 * method, path and body for 24 hours; the same key with another request is refused (422
 * `idempotency_key_reused`), and while the first request is still running a retry is told so (409
 * `idempotency_key_in_use`). Only successful answers are kept: a failed request changed nothing, so a retry with
 * the same key runs again (integrators retry 503s). Answers are stored without their secret fields; the owning
 * service, which keeps secrets encrypted and deduplicates on the same key, supplies them on replay
 * (docs/adr/0011-provisioning-numbers.md, docs/adr/0056-idempotency-key-on-every-public-write.md).
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly records: IdempotencyRepository) {}

  async execute<T extends object>(request: IdempotentRequest, route: IdempotentRoute<T>): Promise<T> {
    if (!IDEMPOTENCY_KEY_PATTERN.test(request.key)) {
      throw new ServiceError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
    }
    const scope: IdempotencyScope = { accountId: request.accountId, key: request.key };
    const fingerprint = { method: request.method, path: request.path, hash: requestHash(request) };
    const now = new Date();
    await this.records.sweep(new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS));

    let claimed = await this.records.claim(scope, fingerprint, now);
    if (!claimed) {
      const existing = await this.records.find(scope);
      if (!existing) {
        claimed = await this.records.claim(scope, fingerprint, now);
        if (!claimed) throw inUse(now, now);
      } else if (existing.created_at.getTime() <= now.getTime() - IDEMPOTENCY_RETENTION_MS) {
        if (!(await this.records.takeOver(scope, existing.created_at, fingerprint, now))) throw inUse(now, now);
        claimed = true;
      } else if (
        existing.method !== fingerprint.method ||
        existing.path !== fingerprint.path ||
        existing.request_hash !== fingerprint.hash
      ) {
        throw new ServiceError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with another request; use a new key for a new request.',
        );
      } else if (existing.response_status === null) {
        if (existing.created_at.getTime() > now.getTime() - IDEMPOTENCY_LEASE_MS) throw inUse(existing.created_at, now);
        if (!(await this.records.takeOver(scope, existing.created_at, fingerprint, now))) throw inUse(now, now);
        claimed = true;
      } else {
        const stored = existing.response_body as Partial<T>;
        const answer = route.secretFields?.length && route.restore ? await route.restore(stored) : (stored as T);
        route.onReplay?.();
        return answer;
      }
    }

    let answer: T;
    try {
      answer = await route.run();
    } catch (error) {
      await this.records.release(scope, now).catch(() => undefined);
      throw error;
    }
    await this.records.complete(
      scope,
      now,
      route.status,
      withoutFields(answer, route.secretFields ?? []) as StoredBody,
    );
    return answer;
  }
}

/**
 * 409, with `Retry-After` at the end of the running request's lease (`leaseFrom`: when it took the key; `now` when
 * another request took it just now).
 */
function inUse(leaseFrom: Date, now: Date): ServiceError {
  const seconds = Math.max(1, Math.ceil((leaseFrom.getTime() + IDEMPOTENCY_LEASE_MS - now.getTime()) / 1000));
  return new ServiceError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still in progress; retry shortly.',
    seconds,
  );
}

/** SHA-256 over the method, path and the body as canonical JSON (keys sorted), so key order does not matter. */
export function requestHash(request: Pick<IdempotentRequest, 'method' | 'path' | 'body'>): string {
  return createHash('sha256')
    .update(`${request.method} ${request.path}\n${canonicalJson(request.body)}`)
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

function withoutFields<T extends object>(answer: T, fields: string[]): Partial<T> {
  const copy: Record<string, unknown> = { ...(answer as Record<string, unknown>) };
  for (const field of fields) delete copy[field];
  return copy as Partial<T>;
}
