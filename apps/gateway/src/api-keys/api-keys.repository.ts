import { Injectable } from '@nestjs/common';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { ApiKey } from '../generated/kysely/database';
import { GatewayPrisma, GatewayTransactions } from '../prisma/gateway-prisma';

export type ApiKeyRecord = Pick<
  Selectable<ApiKey>,
  'id' | 'account_id' | 'secret_hash' | 'display_hint' | 'ip_allowlist' | 'created_at' | 'replaces'
>;

/** A key as the console lists it: never its secret or hash. */
export type ApiKeyListing = Pick<
  Selectable<ApiKey>,
  'id' | 'account_id' | 'display_hint' | 'ip_allowlist' | 'created_at' | 'last_used_at' | 'revoked_at' | 'replaces'
>;

export type NewApiKey = Pick<Insertable<ApiKey>, 'id' | 'account_id' | 'secret_hash' | 'display_hint' | 'replaces'> & {
  ip_allowlist: string[];
};

@Injectable()
export class ApiKeysRepository {
  constructor(
    private readonly prisma: GatewayPrisma,
    private readonly transactions: GatewayTransactions,
  ) {}

  /**
   * Inserts a key unless the account already has `max` active ones. The per-account advisory lock makes the
   * count and the insert one step, so concurrent requests cannot pass the limit together.
   */
  async createWithinLimit(key: NewApiKey, max: number): Promise<ApiKeyRecord | null> {
    return this.transactions.run(async (tx) => {
      await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('api_keys:' || ${key.account_id}))`.execute(tx.$kysely());
      const active = await tx.apiKey.count({ where: { account_id: key.account_id, revoked_at: null } });
      if (active >= max) return null;
      return tx.apiKey.create({
        data: key,
        select: {
          id: true,
          account_id: true,
          secret_hash: true,
          display_hint: true,
          ip_allowlist: true,
          created_at: true,
          replaces: true,
        },
      });
    });
  }

  /** Every key of the accounts (an account and its test twin), active and revoked, newest first. */
  listForAccounts(accountIds: string[]): Promise<ApiKeyListing[]> {
    return this.prisma.apiKey.findMany({
      where: { account_id: { in: accountIds } },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      select: {
        id: true,
        account_id: true,
        display_hint: true,
        ip_allowlist: true,
        created_at: true,
        last_used_at: true,
        revoked_at: true,
        replaces: true,
      },
    });
  }

  /** An active key of the accounts, or null (unknown, revoked, or another account's). */
  findActive(
    accountIds: string[],
    keyId: string,
  ): Promise<{ id: string; account_id: string; ip_allowlist: string[] } | null> {
    return this.prisma.apiKey.findFirst({
      where: { id: keyId, account_id: { in: accountIds }, revoked_at: null },
      select: { id: true, account_id: true, ip_allowlist: true },
    });
  }

  /** Revokes an active key of the accounts: the key's account and revocation time, or null when there is none. */
  async revoke(accountIds: string[], keyId: string): Promise<{ account_id: string; revoked_at: Date } | null> {
    const [revoked] = await this.prisma.apiKey.updateManyAndReturn({
      where: { id: keyId, account_id: { in: accountIds }, revoked_at: null },
      data: { revoked_at: new Date() },
      select: { account_id: true, revoked_at: true },
    });
    return revoked?.revoked_at ? { account_id: revoked.account_id, revoked_at: revoked.revoked_at } : null;
  }

  /** Which of these keys are active (not revoked), in one statement: what an open listen stream re-checks. */
  async activeAmong(keyIds: string[]): Promise<Set<string>> {
    if (keyIds.length === 0) return new Set();
    const active = await this.prisma.apiKey.findMany({
      where: { id: { in: keyIds }, revoked_at: null },
      select: { id: true },
    });
    return new Set(active.map((key) => key.id));
  }
}
