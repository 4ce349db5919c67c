import { Injectable } from '@nestjs/common';
import { sqlExecute } from '@switchboard/persistence';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { ApiKey } from '../generated/kysely/database';
import { GatewayPrisma } from '../prisma/gateway-prisma';

export type ApiKeyRecord = Pick<Selectable<ApiKey>, 'id' | 'account_id' | 'secret_hash' | 'ip_allowlist' | 'created_at'>;

export type NewApiKey = Pick<Insertable<ApiKey>, 'id' | 'account_id' | 'secret_hash' | 'display_hint'> & { ip_allowlist: string[] };

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly prisma: GatewayPrisma) {}

  /**
   * Inserts a key unless the account already has `max` active ones. The per-account advisory lock makes the
   * count and the insert one step, so concurrent requests cannot pass the limit together.
   */
  async createWithinLimit(key: NewApiKey, max: number): Promise<ApiKeyRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      await sqlExecute(tx, sql`SELECT pg_advisory_xact_lock(hashtext('api_keys:' || ${key.account_id}))`);
      const active = await tx.apiKey.count({ where: { account_id: key.account_id, revoked_at: null } });
      if (active >= max) return null;
      return tx.apiKey.create({
        data: key,
        select: { id: true, account_id: true, secret_hash: true, ip_allowlist: true, created_at: true },
      });
    });
  }

  /** Revokes an active key of the account; false when there is none by that id. */
  async revoke(accountId: string, keyId: string): Promise<boolean> {
    const result = await this.prisma.apiKey.updateMany({
      where: { id: keyId, account_id: accountId, revoked_at: null },
      data: { revoked_at: new Date() },
    });
    return result.count === 1;
  }
}
