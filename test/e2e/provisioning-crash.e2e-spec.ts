import { randomBytes } from 'node:crypto';
import { createTestDatabase, testNatsEnv, type TestDatabase } from '@switchboard/testing';
import { Client } from 'pg';
import { AdminClient, ApiSession, ServiceProcess, startSystem, type RunningSystem } from './support';

jest.setTimeout(120_000);

/**
 * Issue 20: numbers-billing killed (SIGKILL) after the provider sold a number and before it was recorded. Issue
 * 22: the retry with the same Idempotency-Key is refused 409 with Retry-After while the order's lease runs, and
 * goes through once it has ended. The provider hangs after the sale (SIMULATED_PROVIDER_HANG_AFTER_SALE, a test-only
 * fault), so the kill lands in that window every time.
 */
describe('numbers-billing killed between the provider sale and our record', () => {
  let system: RunningSystem;
  let database: TestDatabase;
  let sql: Client;
  let service: ServiceProcess | undefined;
  let serviceEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    system = await startSystem({ services: [] }); // the gateway in-process; numbers-billing as a process of its own
    database = await createTestDatabase('numbers-billing');
    sql = new Client({ connectionString: database.url });
    await sql.connect();
    serviceEnv = {
      ...system.env,
      ...testNatsEnv('numbers-billing'),
      NUMBERS_BILLING_DATABASE_URL: database.url,
      SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PROVIDER_RECONCILE_INTERVAL_MS: '500',
    };
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await sql?.end();
    await database?.drop();
    await system?.stop();
  });

  const one = async <T>(text: string, values: unknown[] = []): Promise<T> =>
    (await sql.query(text, values)).rows[0] as T;

  it('reconciles the stray number after a restart and charges once for the retried provision', async () => {
    service = await ServiceProcess.start('numbers-billing', { ...serviceEnv, SIMULATED_PROVIDER_HANG_AFTER_SALE: '1' });
    const session = await ApiSession.create(system, { balance_cents: 10_000 });
    const body = { business_phone: '+14155550123' };
    const key = { 'idempotency-key': `crash-${randomBytes(4).toString('hex')}` };

    const first = session.post('/numbers', body, key);
    const sale = await service.logged('simulated provider sold a number and hangs');
    await service.stop('SIGKILL');

    const lost = await first;
    expect(lost.status).toBe(503);
    expect(lost.body.error.code).toBe('service_unavailable');
    expect(lost.headers.get('retry-after')).toBe('5');
    // What the kill left: the number sold at the provider, the order pending, nothing recorded or charged.
    const orderId = String(sale.order_ref);
    expect(
      await one('SELECT status, order_ref FROM simulated_provider_numbers WHERE phone_number = $1', [
        sale.phone_number,
      ]),
    ).toEqual({ status: 'sold', order_ref: orderId });
    expect(await one('SELECT status FROM number_orders WHERE id = $1', [orderId])).toEqual({ status: 'pending' });
    expect(await one('SELECT count(*)::int AS n FROM numbers')).toEqual({ n: 0 });

    service = await ServiceProcess.start('numbers-billing', serviceEnv);
    const refused = await session.post('/numbers', body, key);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('idempotency_key_in_use');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(100); // the 2-minute lease began a few seconds ago
    expect(retryAfter).toBeLessThanOrEqual(120);

    // The lease runs out (the clock moves on): the next reconciliation pass gives the stray back to the provider.
    await sql.query(`UPDATE number_orders SET updated_at = now() - interval '3 minutes' WHERE id = $1`, [orderId]);
    const released = await service.logged('reconciliation released a number');
    expect(released).toMatchObject({
      phone_number: sale.phone_number,
      order_id: orderId,
      account_id: session.accountId,
      order_status: 'pending',
    });
    expect(
      await one('SELECT status FROM simulated_provider_numbers WHERE phone_number = $1', [sale.phone_number]),
    ).toEqual({ status: 'released' });
    expect(await one('SELECT status, failure_code FROM number_orders WHERE id = $1', [orderId])).toEqual({
      status: 'failed',
      failure_code: 'abandoned',
    });

    const created = await session.post('/numbers', body, key);
    expect(created.status).toBe(201);
    const replayed = await session.post('/numbers', body, key);
    expect(replayed.status).toBe(201);
    expect(replayed.body.id).toBe(created.body.id);

    // Bought once more, charged once, and no stray left at the provider.
    const account = await new AdminClient(system).request('GET', `/admin/accounts/${session.accountId}`);
    expect(account.body.balance_cents).toBe(9_500);
    expect(await one('SELECT count(*)::int AS n FROM ledger_entries WHERE kind = $1', ['number_month'])).toEqual({
      n: 1,
    });
    expect(await one(`SELECT count(*)::int AS n FROM simulated_provider_numbers WHERE status = 'sold'`)).toEqual({
      n: 1,
    });
    expect(
      await one('SELECT status, number_id::text AS number_id FROM number_orders WHERE id = $1', [orderId]),
    ).toEqual({ status: 'completed', number_id: created.body.id.replace('num_', '') });
  });
});
