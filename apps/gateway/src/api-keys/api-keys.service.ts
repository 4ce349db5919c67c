import { Injectable } from '@nestjs/common';
import {
  AccountsRpc,
  MAX_ACTIVE_API_KEYS,
  ServiceError,
  type ApiKeyCreated,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { allowlistProblems, normalizeAllowlist } from '../auth/ip-allowlist';
import { displayHint, hashSecret, newKeyId, newSecret } from '../auth/api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly rpc: RpcClient,
  ) {}

  async create(accountId: string, ipAllowlist: string[] = [], requestId?: string): Promise<ApiKeyCreated> {
    const problems = allowlistProblems(ipAllowlist);
    if (problems.length > 0) throw new ServiceError('invalid_request', `ip_allowlist: ${problems.slice(0, 5).join('; ')}`);
    // The account must exist: numbers-billing owns accounts and answers 404 not_found otherwise.
    await this.rpc.request(AccountsRpc.get, { account_id: accountId }, { requestId });
    const secret = newSecret();
    const created = await this.keys.createWithinLimit(
      {
        id: newKeyId(),
        account_id: accountId,
        secret_hash: hashSecret(secret),
        display_hint: displayHint(secret),
        ip_allowlist: normalizeAllowlist(ipAllowlist),
      },
      MAX_ACTIVE_API_KEYS,
    );
    if (!created) throw new ServiceError('key_limit', `An account has at most ${MAX_ACTIVE_API_KEYS} active keys; revoke one first.`);
    return { id: created.id, key: secret, ip_allowlist: created.ip_allowlist, created_at: created.created_at.toISOString() };
  }

  async revoke(accountId: string, keyId: string): Promise<void> {
    if (!(await this.keys.revoke(accountId, keyId))) throw new ServiceError('not_found', 'No active key with that id on this account.');
  }
}
