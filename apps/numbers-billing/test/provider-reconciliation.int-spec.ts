import { randomUUID } from 'node:crypto';
import { NumbersRpc, ServiceError, areaCodeOf } from '@switchboard/contracts';
import { createAccount } from './factories/account.factory';
import { numberCreate } from './factories/number.factory';
import { startNumbersBilling, type NumbersBillingHarness } from './support/numbers-billing-harness';
import { NumberOrdersRepository, ORDER_LEASE_MS } from '../src/numbers/number-orders.repository';
import { fingerprintOf } from '../src/numbers/provisioning.service';
import { SimulatedTelephonyAdapter } from '../src/telephony/simulated-telephony.adapter';
import { ProviderReconciliation } from '../src/provisioning/provider-reconciliation';

jest.setTimeout(60_000);

let h: NumbersBillingHarness;
let reconciliation: ProviderReconciliation;
let provider: SimulatedTelephonyAdapter;

beforeAll(async () => {
  // The schedule is off: each test runs a pass itself, at the moment it chooses.
  h = await startNumbersBilling({ env: { PROVIDER_RECONCILE_INTERVAL_MS: '0' } });
  reconciliation = h.app.get(ProviderReconciliation);
  provider = h.app.get(SimulatedTelephonyAdapter);
});
afterAll(() => h?.stop());

beforeEach(async () => {
  // Each test judges only the strays it makes.
  await h.prisma.simulatedProviderNumber.updateMany({
    where: { status: 'sold' },
    data: { status: 'released', released_at: new Date() },
  });
});

/**
 * What a crash between buying and recording leaves: a pending order (`ageMs` old) and the number the provider sold
 * for it; no number row, no charge.
 */
async function crashedMidProvision(accountId: string, ageMs: number, idempotencyKey = `key-${randomUUID()}`) {
  const command = numberCreate({ idempotency_key: idempotencyKey });
  const orderId = randomUUID();
  const at = new Date(Date.now() - ageMs);
  await h.app.get(NumberOrdersRepository).create(
    h.prisma,
    {
      id: orderId,
      account_id: accountId,
      idempotency_key: idempotencyKey,
      fingerprint: fingerprintOf(command),
      business_phone: command.business_phone,
      area_code: areaCodeOf(command.business_phone),
      webhook_url: null,
      hold_millicents: 500_000n,
    },
    at,
  );
  const { phoneNumber } = await provider.buyNumber({ areaCode: areaCodeOf(command.business_phone), orderRef: orderId });
  return { orderId, phoneNumber, command };
}

async function providerStatus(phoneNumber: string): Promise<string | undefined> {
  return (await h.prisma.simulatedProviderNumber.findUnique({ where: { phone_number: phoneNumber } }))?.status;
}

async function numberCharges(accountId: string): Promise<number> {
  return h.prisma.ledgerEntry.count({ where: { account_id: accountId, kind: 'number_month' } });
}

describe('provider reconciliation', () => {
  it('releases a number bought for an order abandoned past its lease, fails the order, charges nothing', async () => {
    const account = await createAccount(h);
    const stray = await crashedMidProvision(account.id, ORDER_LEASE_MS + 5_000);

    expect(await reconciliation.run()).toEqual({ owned: 1, released: 1, inFlight: 0, failed: 0 });
    expect(await providerStatus(stray.phoneNumber)).toBe('released');
    expect(await h.prisma.numberOrder.findUnique({ where: { id: stray.orderId } })).toMatchObject({
      status: 'failed',
      failure_code: 'abandoned',
    });
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(0);
    expect(await numberCharges(account.id)).toBe(0);

    // The integrator's retry with the same key buys again under the same order, and is charged once.
    const created = await h.request(NumbersRpc.provision, stray.command, account.id);
    expect(created.phone_number).toBe(stray.phoneNumber); // the pool sells the lowest free number again
    expect(await numberCharges(account.id)).toBe(1);
    expect(await reconciliation.run()).toEqual({ owned: 1, released: 0, inFlight: 0, failed: 0 });
    expect(await providerStatus(created.phone_number)).toBe('sold');
  });

  it('leaves a purchase alone while its order is within the lease, and refuses a retry with Retry-After until it ends', async () => {
    const account = await createAccount(h);
    const inFlight = await crashedMidProvision(account.id, 30_000);

    expect(await reconciliation.run()).toEqual({ owned: 1, released: 0, inFlight: 1, failed: 0 });
    expect(await providerStatus(inFlight.phoneNumber)).toBe('sold');

    const refused = await h
      .request(NumbersRpc.provision, inFlight.command, account.id)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'idempotency_key_in_use' });
    // 2 minutes of lease, 30 s of it gone: about 90 s left.
    expect((refused as ServiceError).retryAfter).toBeGreaterThanOrEqual(85);
    expect((refused as ServiceError).retryAfter).toBeLessThanOrEqual(90);

    // The lease ends (the clock moves on): the next pass releases the stray and the retry goes through.
    await h.prisma.numberOrder.update({
      where: { id: inFlight.orderId },
      data: { updated_at: new Date(Date.now() - ORDER_LEASE_MS - 1_000) },
    });
    expect(await reconciliation.run()).toMatchObject({ released: 1 });
    const created = await h.request(NumbersRpc.provision, inFlight.command, account.id);
    expect(created.status).toBe('active');
    expect(await numberCharges(account.id)).toBe(1);
  });

  it('releases a number sold for an order that failed (the purchase answered too late) or that we never made', async () => {
    const account = await createAccount(h);
    const late = await crashedMidProvision(account.id, 1_000);
    await h.prisma.numberOrder.update({
      where: { id: late.orderId },
      data: { status: 'failed', failure_code: 'provider_unavailable' },
    });
    const unknown = await provider.buyNumber({ areaCode: '212', orderRef: randomUUID() });

    expect(await reconciliation.run()).toEqual({ owned: 2, released: 2, inFlight: 0, failed: 0 });
    expect(await providerStatus(late.phoneNumber)).toBe('released');
    expect(await providerStatus(unknown.phoneNumber)).toBe('released');
    expect(await h.prisma.numberOrder.findUnique({ where: { id: late.orderId } })).toMatchObject({
      status: 'failed',
      failure_code: 'provider_unavailable',
    });
  });

  it('does not record a purchase that answered after reconciliation gave it up: 503, nothing charged', async () => {
    const account = await createAccount(h);
    const buy = provider.buyNumber.bind(provider);
    const slow = jest.spyOn(provider, 'buyNumber').mockImplementationOnce(async (request) => {
      const sold = await buy(request);
      // The purchase outlives the lease, and a reconciliation pass runs before it answers.
      await h.prisma.numberOrder.update({
        where: { id: request.orderRef },
        data: { updated_at: new Date(Date.now() - ORDER_LEASE_MS - 1_000) },
      });
      await reconciliation.run();
      return sold;
    });
    try {
      const refused = await h
        .request(NumbersRpc.provision, numberCreate(), account.id)
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'provider_unavailable' });
    } finally {
      slow.mockRestore();
    }
    expect(await h.prisma.phoneNumber.count({ where: { account_id: account.id } })).toBe(0);
    expect(await numberCharges(account.id)).toBe(0);
    expect(await h.prisma.simulatedProviderNumber.count({ where: { status: 'sold' } })).toBe(0);
  });

  it('never touches a number that was provisioned and recorded', async () => {
    const account = await createAccount(h);
    const created = await h.request(NumbersRpc.provision, numberCreate(), account.id);
    expect(await reconciliation.run()).toEqual({ owned: 1, released: 0, inFlight: 0, failed: 0 });
    expect(await providerStatus(created.phone_number)).toBe('sold');
  });
});
