import { Injectable } from '@nestjs/common';
import {
  AccountsRpc,
  MAX_ACTIVE_API_KEYS,
  ServiceError,
  accountForMode,
  accountMode,
  liveAccountOf,
  testAccountOf,
  type ApiKeyCreated,
  type ApiKeyMode,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { allowlistProblems, normalizeAllowlist } from '../auth/ip-allowlist';
import { displayHint, hashSecret, newKeyId, newSecret } from '../auth/api-key-secret';
import { ApiKeyRevocations } from './api-key-revocations';
import { ApiKeysRepository } from './api-keys.repository';

/** A key just made, its secret shown once. */
export interface CreatedKey {
  id: string;
  key: string;
  /** `live` or `test` (docs/adr/0087-test-mode.md). */
  mode: ApiKeyMode;
  prefix: string;
  ip_allowlist: string[];
  created_at: string;
  replaces?: string;
}

export interface KeyListing {
  id: string;
  mode: ApiKeyMode;
  prefix: string;
  ip_allowlist: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  replaces: string | null;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly rpc: RpcClient,
    private readonly revocations: ApiKeyRevocations,
  ) {}

  /** The operator's answer (operator contract): id, secret, allowlist, creation time, and the key's mode. */
  async create(
    accountId: string,
    ipAllowlist: string[] = [],
    options: { requestId?: string; mode?: ApiKeyMode } = {},
  ): Promise<ApiKeyCreated> {
    const created = await this.createKey(accountId, ipAllowlist, options);
    return {
      id: created.id,
      key: created.key,
      ip_allowlist: created.ip_allowlist,
      created_at: created.created_at,
      mode: created.mode,
    };
  }

  /**
   * A new key of the account, its secret returned once. Same rules wherever it is made (operator API, console): a
   * valid allowlist, an existing account, at most 5 active keys of each mode. `replaces` names the key a rotation
   * replaces. A test key belongs to the account's test twin, made with the first one (docs/adr/0087-test-mode.md).
   */
  async createKey(
    accountId: string,
    ipAllowlist: string[],
    options: { requestId?: string; replaces?: string; mode?: ApiKeyMode } = {},
  ): Promise<CreatedKey> {
    const { requestId, replaces } = options;
    const mode = options.mode ?? accountMode(accountId);
    const live = liveAccountOf(accountId);
    const problems = allowlistProblems(ipAllowlist);
    if (problems.length > 0)
      throw new ServiceError('invalid_request', `ip_allowlist: ${problems.slice(0, 5).join('; ')}`);
    // The account must exist: numbers-billing owns accounts and answers 404 not_found otherwise. A test key's twin
    // is made (once) here.
    if (mode === 'test') await this.rpc.request(AccountsRpc.openTestMode, { account_id: live }, { requestId });
    else await this.rpc.request(AccountsRpc.get, { account_id: live }, { requestId });
    const secret = newSecret(mode);
    const created = await this.keys.createWithinLimit(
      {
        id: newKeyId(),
        account_id: accountForMode(live, mode),
        secret_hash: hashSecret(secret),
        display_hint: displayHint(secret),
        ip_allowlist: normalizeAllowlist(ipAllowlist),
        ...(replaces ? { replaces } : {}),
      },
      MAX_ACTIVE_API_KEYS,
    );
    if (!created) {
      const rotating = replaces
        ? ' A rotation makes the new key before the old one is revoked, so it needs a free place too.'
        : '';
      throw new ServiceError(
        'key_limit',
        `An account has at most ${MAX_ACTIVE_API_KEYS} active keys of each mode, and this one has ${MAX_ACTIVE_API_KEYS} ${mode} keys: revoke a key you no longer use first.${rotating}`,
      );
    }
    return {
      id: created.id,
      key: secret,
      mode,
      prefix: created.display_hint,
      ip_allowlist: created.ip_allowlist,
      created_at: created.created_at.toISOString(),
      ...(created.replaces ? { replaces: created.replaces } : {}),
    };
  }

  /** Every key of the account, live and test, newest first, as the console lists them (no secret, no hash). */
  async list(accountId: string): Promise<{ data: KeyListing[] }> {
    const keys = await this.keys.listForAccounts(family(accountId));
    return {
      data: keys.map((key) => ({
        id: key.id,
        mode: accountMode(key.account_id),
        prefix: key.display_hint,
        ip_allowlist: key.ip_allowlist,
        created_at: key.created_at.toISOString(),
        last_used_at: key.last_used_at?.toISOString() ?? null,
        revoked_at: key.revoked_at?.toISOString() ?? null,
        replaces: key.replaces,
      })),
    };
  }

  /**
   * A new key to replace an active one, with the same allowlist; the old key keeps working until it is revoked, so
   * the integrator can deploy the new one first.
   */
  async rotate(accountId: string, keyId: string, requestId?: string): Promise<CreatedKey> {
    const old = await this.keys.findActive(family(accountId), keyId);
    if (!old) throw new ServiceError('not_found', 'No active key with that id on this account.');
    return this.createKey(accountId, old.ip_allowlist, {
      requestId,
      replaces: old.id,
      mode: accountMode(old.account_id),
    });
  }

  /**
   * Revokes a key of the account, live or test, and tells every gateway replica, whose `webhook/listen` streams on
   * the key end at once (docs/adr/0128-webhook-signatures-secrets-and-listen.md).
   */
  async revoke(accountId: string, keyId: string): Promise<void> {
    const revoked = await this.keys.revoke(family(accountId), keyId);
    if (!revoked) throw new ServiceError('not_found', 'No active key with that id on this account.');
    this.revocations.announce({
      key_id: keyId,
      account_id: revoked.account_id,
      revoked_at: revoked.revoked_at.toISOString(),
    });
  }
}

/** An account and its test twin: whoever manages one manages the keys of both. */
function family(accountId: string): string[] {
  const live = liveAccountOf(accountId);
  return [live, testAccountOf(live)];
}
