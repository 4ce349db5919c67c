import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AccountsRpc, BillingRpc, NumbersRpc, ServiceError, TIERS } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { testNatsEnv, testNatsOptions } from '@switchboard/testing';
import { messagingConfigFromEnv } from '@switchboard/service-runtime';
import { allowancePeriod } from '../src/billing/billing-periods';
import { createNumbersBillingApp } from '../src/bootstrap';
import { TalkTimeRepository } from '../src/talk-time/talk-time.repository';
import { numberCreate } from './factories/number.factory';
import { askWebhookTarget } from './support/webhook-target';

jest.setTimeout(120_000);

/** `npm start` with no database URL: the embedded PGlite under DATA_DIR, with its single connection. */
describe('numbers-billing on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-nb-pglite-'));
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ...testNatsEnv('numbers-billing'),
    NATS_SUBJECT_PREFIX: prefix,
  };
  delete env.NUMBERS_BILLING_DATABASE_URL;
  let app: INestApplicationContext;
  let nc: NatsConnection;
  let rpc: RpcClient;

  beforeAll(async () => {
    app = await createNumbersBillingApp(env, createLogger('numbers-billing', 'silent'));
    nc = await connect(testNatsOptions());
    rpc = new RpcClient(nc, messagingConfigFromEnv(env));
  });
  afterAll(async () => {
    await app?.close();
    if (nc) {
      const { jetstreamManager } = await import('@nats-io/jetstream');
      const jsm = await jetstreamManager(nc);
      for await (const stream of jsm.streams.list()) {
        if (stream.config.name.startsWith(`${prefix.toUpperCase()}_`)) await jsm.streams.delete(stream.config.name);
      }
      await nc.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('provisions concurrently without overspending, and bills', async () => {
    const account = await rpc.request(AccountsRpc.create, { name: 'Embedded', balance_cents: 1_000 });
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        rpc.request(NumbersRpc.provision, numberCreate(), { accountId: account.id, timeoutMs: 30_000 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as ServiceError).code).toBe('insufficient_balance');
    const run = await rpc.request(
      BillingRpc.runCycle,
      { now: new Date(Date.now() + 40 * 24 * 3600 * 1000).toISOString() },
      { timeoutMs: 30_000 },
    );
    expect(run).toEqual({ charged: 0, past_due: 2, released: 0 });
    const ledger = await rpc.request(BillingRpc.ledger, { account_id: account.id });
    expect(ledger.balance_cents).toBe(0);
  });

  // The list and the webhook target are Kysely statements through the Prisma client's `$kysely()`, here on PGlite.
  it('lists numbers page by page, and answers the webhook target with the secret opened', async () => {
    const account = await rpc.request(AccountsRpc.create, { name: 'Embedded list', balance_cents: 10_000 });
    const first = await rpc.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
      { accountId: account.id, timeoutMs: 30_000 },
    );
    const second = await rpc.request(NumbersRpc.provision, numberCreate(), {
      accountId: account.id,
      timeoutMs: 30_000,
    });
    const page1 = await rpc.request(NumbersRpc.list, { limit: 1 }, { accountId: account.id });
    expect(page1).toMatchObject({ data: [{ id: second.id, status: 'active', webhook_url: null }], has_more: true });
    const page2 = await rpc.request(
      NumbersRpc.list,
      { limit: 1, starting_after: second.id },
      { accountId: account.id },
    );
    expect(page2).toMatchObject({
      data: [{ id: first.id, webhook_url: 'https://93.184.215.14/hooks', created_at: first.created_at }],
      has_more: false,
    });
    expect(await askWebhookTarget((descriptor, query) => rpc.request(descriptor, query), first.id)).toMatchObject({
      number_id: first.id,
      webhook_url: 'https://93.184.215.14/hooks',
      webhook_secret: first.webhook_secret,
    });
  });

  // Talk time's one-round-trip charge (ADR 0013) aborts through a PL/pgSQL function, seen through Prisma here.
  it('charges talk time in one statement, and leaves a call that changes answering to the full path', async () => {
    const account = await rpc.request(AccountsRpc.create, { name: 'Embedded talk time', balance_cents: 10_000 });
    const period = allowancePeriod(new Date());
    const charge = (seconds: number) => ({
      accountId: account.id,
      reference: `talk_time:CAembedded${seconds}`,
      period,
      seconds,
      byTier: Object.fromEntries(TIERS.map((tier) => [tier, { amountMillicents: 1_000n, description: tier }])) as never,
    });
    const quick = (seconds: number) =>
      app.get(TalkTimeRepository).chargeUnlessAnsweringChanges(charge(seconds), period);
    expect(await quick(60)).toMatchObject({ kind: 'charged', usageSeconds: 60n });
    expect(await quick(1_000_000)).toEqual({ kind: 'answering_changes' });
    expect((await rpc.request(BillingRpc.ledger, { account_id: account.id })).balance_cents).toBe(9_999);
  });
});
