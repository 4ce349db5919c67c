import { Inject, Injectable } from '@nestjs/common';
import type { SqlPool } from '@switchboard/persistence';
import { AUTH_SQL } from '../config/tokens';

/** An active key found by the hash of its secret. */
export interface ActiveKey {
  id: string;
  account_id: string;
  secret_hash: string;
  ip_allowlist: string[];
  /** When the key last authenticated a request (moved at most once a minute), null if never. */
  last_used_at: Date | null;
}

/** The key's fixed rate-limit window after counting this request (docs/adr/0002-rate-limit-window.md). */
export interface WindowCount {
  count: number;
  windowStart: Date;
}

/**
 * Counts one request in the key's window, starting a new window when the current one is older than its length.
 * `%KEYS%` is a row source with an `id` column: the keys whose request counts. One atomic upsert, so every
 * gateway replica shares the count and no request is lost to a race.
 */
const COUNT_REQUEST = `
  INSERT INTO rate_limit_windows AS w (key_id, window_start, count)
  SELECT id, now(), 1 FROM %KEYS%
  ON CONFLICT (key_id) DO UPDATE SET
    window_start = CASE WHEN w.window_start <= now() - make_interval(secs => $2::double precision) THEN now() ELSE w.window_start END,
    count        = CASE WHEN w.window_start <= now() - make_interval(secs => $2::double precision) THEN 1 ELSE w.count + 1 END
  RETURNING key_id, count, window_start`;

/**
 * The active key behind a secret hash and, for a key without an IP allowlist, its request counted: one
 * statement, one round trip per request. A key with an allowlist is not counted here: a request from an address
 * outside the list must not use up the owner's limit, and the allowlist is checked in the gateway
 * (auth/ip-allowlist.ts), after which `countRequest` counts it.
 */
export const FIND_KEY_COUNTING_REQUEST = `
  WITH k AS (
    SELECT id, account_id, secret_hash, ip_allowlist, last_used_at FROM api_keys WHERE secret_hash = $1 AND revoked_at IS NULL
  ), hit AS (${COUNT_REQUEST.replace('%KEYS%', 'k WHERE coalesce(cardinality(k.ip_allowlist), 0) = 0')})
  SELECT k.id, k.account_id, k.secret_hash, k.ip_allowlist, k.last_used_at, hit.count, hit.window_start
  FROM k LEFT JOIN hit ON hit.key_id = k.id`;

export const COUNT_ONE_KEY = COUNT_REQUEST.replace('%KEYS%', '(SELECT $1::text AS id) AS one_key');

/** How stale `last_used_at` may be: a key in use is written once a minute, not once a request. */
export const LAST_USED_RESOLUTION_SECONDS = 60;

/** Moves `last_used_at` to now unless another request (or replica) already did within the resolution. */
export const TOUCH_LAST_USED = `
  UPDATE api_keys SET last_used_at = now()
  WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2::double precision))`;

interface KeyRow extends Omit<ActiveKey, 'ip_allowlist'> {
  ip_allowlist: string[] | null;
  count: number | null;
  window_start: Date | null;
}

/**
 * The statements behind every authenticated request, outside Prisma (a plain `pg` pool whose commits do not wait
 * for the WAL flush: a database crash may forget the last fraction of a second of counts, never a key; keys are
 * created and revoked through Prisma, durably). docs/adr/0002-rate-limit-window.md.
 */
@Injectable()
export class RequestAuthRepository {
  constructor(@Inject(AUTH_SQL) private readonly sql: SqlPool) {}

  /** The active key by secret hash, with this request counted unless the key has an IP allowlist. */
  async findKeyCountingRequest(secretHash: string, windowSeconds: number): Promise<{ key: ActiveKey; window?: WindowCount } | undefined> {
    const [row] = await this.sql.query<KeyRow>({ name: 'gateway_find_key_counting_request', text: FIND_KEY_COUNTING_REQUEST, values: [secretHash, windowSeconds] });
    if (!row) return undefined;
    const key = { id: row.id, account_id: row.account_id, secret_hash: row.secret_hash, ip_allowlist: row.ip_allowlist ?? [], last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at) };
    return row.count === null || row.window_start === null ? { key } : { key, window: { count: Number(row.count), windowStart: row.window_start } };
  }

  /** Records that the key was used (at most once per resolution; see TOUCH_LAST_USED). */
  async touchLastUsed(keyId: string): Promise<void> {
    await this.sql.query({ name: 'gateway_touch_key_last_used', text: TOUCH_LAST_USED, values: [keyId, LAST_USED_RESOLUTION_SECONDS] });
  }

  /** Counts one request of a key (a key with an allowlist, once its caller's address was allowed). */
  async countRequest(keyId: string, windowSeconds: number): Promise<WindowCount> {
    const [row] = await this.sql.query<{ count: number; window_start: Date }>({ name: 'gateway_count_request', text: COUNT_ONE_KEY, values: [keyId, windowSeconds] });
    return { count: Number(row.count), windowStart: row.window_start };
  }
}
