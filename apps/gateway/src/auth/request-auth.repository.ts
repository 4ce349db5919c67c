import { Injectable } from '@nestjs/common';
import { compileSql, prebuiltStatement } from '@switchboard/persistence';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { ApiKey, RateLimitWindow } from '../generated/kysely/database';
import { GatewayPrisma } from '../prisma/gateway-prisma';

/** An active key found by the hash of its secret. */
export type ActiveKey = Pick<Selectable<ApiKey>, 'id' | 'account_id' | 'secret_hash' | 'ip_allowlist' | 'last_used_at'>;

/** The key's fixed rate-limit window after counting this request (docs/adr/0002-api-keys-and-rate-limits.md). */
export interface WindowCount {
  count: number;
  windowStart: Date;
}

/**
 * Makes the statement's own transaction commit without waiting for the WAL flush (`SET LOCAL synchronous_commit`, as
 * a function a statement can call): a PostgreSQL crash may forget the counts of its last fraction of a second, never
 * a key (ADR 0002). Evaluated once per row of the row source that selects it; it ends with the statement.
 */
const ASYNCHRONOUS_COMMIT = sql`set_config('synchronous_commit', 'off', true)`;

/**
 * Counts one request in the key's window, starting a new window when the current one is older than its length.
 * `keys` is a row source with an `id` column: the keys whose request counts. One atomic upsert, so every
 * gateway replica shares the count and no request is lost to a race.
 */
function countRequest(keys: RawBuilder<unknown>, windowSeconds: number) {
  const expired = sql`w.window_start <= now() - make_interval(secs => ${windowSeconds}::double precision)`;
  return sql`
  INSERT INTO rate_limit_windows AS w (key_id, window_start, count)
  SELECT id, now(), 1 FROM ${keys}
  ON CONFLICT (key_id) DO UPDATE SET
    window_start = CASE WHEN ${expired} THEN now() ELSE w.window_start END,
    count        = CASE WHEN ${expired} THEN 1 ELSE w.count + 1 END
  RETURNING key_id, count, window_start`;
}

type KeyRow = Pick<Selectable<ApiKey>, 'id' | 'account_id' | 'secret_hash' | 'last_used_at'> &
  Nullable<Pick<Selectable<ApiKey>, 'ip_allowlist'> & Pick<Selectable<RateLimitWindow>, 'count' | 'window_start'>>;

/**
 * The active key behind a secret hash and, for a key without an IP allowlist, its request counted: one
 * statement, one round trip per request. A key with an allowlist is not counted here: a request from an address
 * outside the list must not use up the owner's limit, and the allowlist is checked in the gateway
 * (auth/ip-allowlist.ts), after which `countRequest` counts it.
 */
export function findKeyCountingRequest(secretHash: string, windowSeconds: number): RawBuilder<KeyRow> {
  return sql<KeyRow>`
  WITH k AS (
    SELECT id, account_id, secret_hash, ip_allowlist, last_used_at, ${ASYNCHRONOUS_COMMIT} FROM api_keys
     WHERE secret_hash = ${secretHash} AND revoked_at IS NULL
  ), hit AS (${countRequest(sql`k WHERE coalesce(cardinality(k.ip_allowlist), 0) = 0`, windowSeconds)})
  SELECT k.id, k.account_id, k.secret_hash, k.ip_allowlist, k.last_used_at, hit.count, hit.window_start
  FROM k LEFT JOIN hit ON hit.key_id = k.id`;
}

/** How stale `last_used_at` may be: a key in use is written once a minute, not once a request. */
export const LAST_USED_RESOLUTION_SECONDS = 60;

/** Moves `last_used_at` to now unless another request (or replica) already did within the resolution. */
function touchLastUsed(keyId: string, resolutionSeconds: number): RawBuilder<never> {
  return sql<never>`
  UPDATE api_keys SET last_used_at = now()
  WHERE id = ${keyId} AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${resolutionSeconds}::double precision))`;
}

function countOneKey(
  keyId: string,
  windowSeconds: number,
): RawBuilder<Pick<Selectable<RateLimitWindow>, 'count' | 'window_start'>> {
  return countRequest(
    sql`(SELECT ${keyId}::text AS id, ${ASYNCHRONOUS_COMMIT}) AS one_key`,
    windowSeconds,
  ) as RawBuilder<Pick<Selectable<RateLimitWindow>, 'count' | 'window_start'>>;
}

/** The text of `findKeyCountingRequest` (its parameters: secret hash, window seconds, window seconds). */
export const FIND_KEY_COUNTING_REQUEST = compileSql(findKeyCountingRequest('', 0)).sql;

// Built and compiled once: run on every authenticated request, Kysely's building and compiling cost the gateway about
// 1% of its CPU on `GET /v1/numbers` (docs/performance.md, seventeenth pass).
const keyCountingRequest = prebuiltStatement(findKeyCountingRequest, 2);

type Nullable<T> = { [K in keyof T]: T[K] | null };

/**
 * The statements behind every authenticated request, through the gateway's Prisma client (`$kysely()`). The counting
 * statements commit without waiting for the WAL flush (`ASYNCHRONOUS_COMMIT`); keys are created and revoked durably.
 * docs/adr/0002-api-keys-and-rate-limits.md.
 */
@Injectable()
export class RequestAuthRepository {
  constructor(private readonly prisma: GatewayPrisma) {}

  /** The active key by secret hash, with this request counted unless the key has an IP allowlist. */
  async findKeyCountingRequest(
    secretHash: string,
    windowSeconds: number,
  ): Promise<{ key: ActiveKey; window?: WindowCount } | undefined> {
    const {
      rows: [row],
    } = await this.prisma.$kysely().executeQuery(keyCountingRequest(secretHash, windowSeconds));
    if (!row) return undefined;
    const key = {
      id: row.id,
      account_id: row.account_id,
      secret_hash: row.secret_hash,
      ip_allowlist: row.ip_allowlist ?? [],
      last_used_at: row.last_used_at,
    };
    return row.count === null || row.window_start === null
      ? { key }
      : { key, window: { count: Number(row.count), windowStart: row.window_start } };
  }

  /** Records that the key was used (at most once per resolution; see touchLastUsed). */
  async touchLastUsed(keyId: string): Promise<void> {
    await touchLastUsed(keyId, LAST_USED_RESOLUTION_SECONDS).execute(this.prisma.$kysely());
  }

  /** Counts one request of a key (a key with an allowlist, once its caller's address was allowed). */
  async countRequest(keyId: string, windowSeconds: number): Promise<WindowCount> {
    const {
      rows: [row],
    } = await countOneKey(keyId, windowSeconds).execute(this.prisma.$kysely());
    return { count: Number(row.count), windowStart: row.window_start };
  }
}
