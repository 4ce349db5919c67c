import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClientHandle } from '@switchboard/persistence';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { hashSecret, newKeyId, newSecret } from './api-key-secret';
import { MIGRATIONS_DIR } from '../bootstrap';
import type { GatewayConfig } from '../config/gateway.config';
import { GatewayPrisma } from '../prisma/gateway-prisma';
import { RateLimiter } from './rate-limiter';
import { findKeyCountingRequest, RequestAuthRepository } from './request-auth.repository';
import { RequestAuthenticator } from './request-authenticator';

jest.setTimeout(60_000);

const LIMIT = 5;
const WINDOW_SECONDS = 60;

interface Fixture {
  handle: PrismaClientHandle<GatewayPrisma>;
  authenticator: RequestAuthenticator;
  close(): Promise<void>;
}

/** The authenticator over PostgreSQL and over embedded PGlite, through the gateway's Prisma client. */
const databases: [string, () => Promise<Fixture>][] = [
  [
    'PostgreSQL',
    async () => {
      const db: TestDatabase = await createTestDatabase('gateway');
      const fixture = await fixtureOver({ GATEWAY_DATABASE_URL: db.url });
      return { ...fixture, close: async () => (await fixture.close(), await db.drop()) };
    },
  ],
  [
    'PGlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sb-auth-pglite-'));
      const fixture = await fixtureOver({ DATA_DIR: dir }, MIGRATIONS_DIR);
      return { ...fixture, close: async () => (await fixture.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  ],
];

async function fixtureOver(env: Record<string, string>, migrationsDir?: string): Promise<Fixture> {
  const handle = await createPrismaClient(GatewayPrisma, 'gateway', { env, migrationsDir });
  const config = { rateLimit: { limit: LIMIT, windowSeconds: WINDOW_SECONDS } } as GatewayConfig;
  const authenticator = new RequestAuthenticator(new RequestAuthRepository(handle.client), new RateLimiter(config));
  return { handle, authenticator, close: () => handle.close() };
}

describe.each(databases)('RequestAuthenticator over %s', (_, open) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await open();
  });
  afterAll(async () => {
    await fx?.close();
  });

  async function newKey(ipAllowlist: string[] = []): Promise<{ id: string; secret: string; accountId: string }> {
    const secret = newSecret();
    const id = newKeyId();
    const accountId = `acct_${id.slice(-20)}`;
    await fx.handle.client.apiKey.create({
      data: {
        id,
        account_id: accountId,
        secret_hash: hashSecret(secret),
        display_hint: secret.slice(0, 12),
        ip_allowlist: ipAllowlist,
      },
    });
    return { id, secret, accountId };
  }

  const countOf = async (keyId: string) =>
    (await fx.handle.client.rateLimitWindow.findUnique({ where: { key_id: keyId } }))?.count ?? 0;

  it('finds an active key and counts the request in the same statement', async () => {
    const key = await newKey();
    const first = await fx.authenticator.authenticate(key.secret, '203.0.113.7');
    expect(first).toEqual({
      key: { keyId: key.id, accountId: key.accountId },
      rateLimit: { allowed: true, limit: LIMIT, remaining: LIMIT - 1, resetSeconds: WINDOW_SECONDS },
    });
    const second = await fx.authenticator.authenticate(key.secret, '203.0.113.7');
    expect(second?.rateLimit.remaining).toBe(LIMIT - 2);
    expect(await countOf(key.id)).toBe(2);
  });

  it("commits the count without waiting for the WAL flush, in the counting statement's transaction only", async () => {
    const key = await newKey();
    const commitSetting = sql<{ setting: string }>`SELECT current_setting('synchronous_commit') AS setting`;
    const inCountingTransaction = await fx.handle.client.$transaction(async (tx) => {
      await findKeyCountingRequest(hashSecret(key.secret), WINDOW_SECONDS).execute(tx.$kysely());
      return (await commitSetting.execute(tx.$kysely())).rows[0].setting;
    });
    expect(inCountingTransaction).toBe('off');
    expect((await commitSetting.execute(fx.handle.client.$kysely())).rows[0].setting).toBe('on');
  });

  it('refuses malformed, unknown and revoked secrets alike, counting nothing', async () => {
    const key = await newKey();
    expect(await fx.authenticator.authenticate('not-a-key', '203.0.113.7')).toBeUndefined();
    expect(await fx.authenticator.authenticate(newSecret(), '203.0.113.7')).toBeUndefined();
    await fx.handle.client.apiKey.update({ where: { id: key.id }, data: { revoked_at: new Date() } });
    expect(await fx.authenticator.authenticate(key.secret, '203.0.113.7')).toBeUndefined();
    expect(await countOf(key.id)).toBe(0);
  });

  it('counts a key with an allowlist only for an allowed address', async () => {
    const key = await newKey(['198.51.100.0/24', '2001:db8::1']);
    expect(await fx.authenticator.authenticate(key.secret, '203.0.113.7')).toBeUndefined();
    expect(await fx.authenticator.authenticate(key.secret, '2001:db8::2')).toBeUndefined();
    expect(await countOf(key.id)).toBe(0);
    expect((await fx.authenticator.authenticate(key.secret, '::ffff:198.51.100.9'))?.rateLimit.remaining).toBe(
      LIMIT - 1,
    );
    expect((await fx.authenticator.authenticate(key.secret, '2001:db8::1'))?.rateLimit.remaining).toBe(LIMIT - 2);
    expect(await countOf(key.id)).toBe(2);
  });

  it('refuses past the limit, keeps counting refused requests, and starts a new window after its length', async () => {
    const key = await newKey();
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i += 1)
      answers.push((await fx.authenticator.authenticate(key.secret, '203.0.113.7'))?.rateLimit);
    expect(answers.map((a) => a?.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(answers.at(-1)).toMatchObject({ remaining: 0, limit: LIMIT });
    expect(await countOf(key.id)).toBe(LIMIT + 2);
    await fx.handle.client.rateLimitWindow.update({
      where: { key_id: key.id },
      data: { window_start: new Date(Date.now() - (WINDOW_SECONDS + 1) * 1000) },
    });
    expect((await fx.authenticator.authenticate(key.secret, '203.0.113.7'))?.rateLimit).toMatchObject({
      allowed: true,
      remaining: LIMIT - 1,
    });
    expect(await countOf(key.id)).toBe(1);
  });

  it('loses no count to concurrent requests', async () => {
    const key = await newKey();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => fx.authenticator.authenticate(key.secret, '203.0.113.7')),
    );
    expect(answers.filter((a) => a?.rateLimit.allowed)).toHaveLength(LIMIT);
    expect(new Set(answers.map((a) => a?.rateLimit.remaining)).size).toBe(LIMIT);
    expect(await countOf(key.id)).toBe(40);
  });

  it('records when a key was last used, writing at most once a minute and off the response path', async () => {
    const key = await newKey();
    const lastUsed = async () =>
      (await fx.handle.client.apiKey.findUnique({ where: { id: key.id } }))?.last_used_at ?? null;
    const written = async () => {
      for (let i = 0; i < 50; i += 1) {
        const at = await lastUsed();
        if (at) return at;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return null;
    };
    expect(await lastUsed()).toBeNull();
    await fx.authenticator.authenticate(key.secret, '203.0.113.7');
    const first = await written();
    expect(first).toBeInstanceOf(Date);
    expect(Math.abs(first!.getTime() - Date.now())).toBeLessThan(10_000);
    // Within the minute: no write (the value stays exactly the same).
    await fx.authenticator.authenticate(key.secret, '203.0.113.7');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lastUsed()).toEqual(first);
    // A minute later it moves.
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await fx.handle.client.apiKey.update({ where: { id: key.id }, data: { last_used_at: twoMinutesAgo } });
    await fx.authenticator.authenticate(key.secret, '203.0.113.7');
    for (let i = 0; i < 50 && (await lastUsed())?.getTime() === twoMinutesAgo.getTime(); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await lastUsed())!.getTime()).toBeGreaterThan(twoMinutesAgo.getTime() + 60_000);
  });
});
