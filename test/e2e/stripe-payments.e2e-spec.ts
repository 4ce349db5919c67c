import { NumbersBillingPrisma } from '../../apps/numbers-billing/src/prisma/numbers-billing-prisma';
import { retellSignature, stripeSignature } from '../stand-ins/provider-signatures';
import { StripeStandIn } from '../stand-ins/stripe/stripe-stand-in';
import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

const WEBHOOK_SECRET = 'whsec_e2eStripePayments0123456789';

/**
 * Issue 17's payments through Stripe (its API played by the stand-in): a live account's auto-top-up is an
 * off-session PaymentIntent keyed by the attempt; a PaymentIntent left processing is settled by Stripe's signed
 * webhook through the gateway, once; a test account's top-up never reaches Stripe (docs/adr/0131 and 0087).
 */
describe('auto-top-up through Stripe', () => {
  const stripe = new StripeStandIn();
  let system: RunningSystem;
  let admin: AdminClient;
  const body = { business_phone: '+14155550123', area_code: '415' };

  beforeAll(async () => {
    const url = await stripe.start();
    system = await startSystem({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    });
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 50 })).status).toBe(200);
  });

  afterAll(async () => {
    await system?.stop();
    await stripe.stop();
  });

  const balanceOf = async (accountId: string) =>
    (await admin.request('GET', `/admin/accounts/${accountId}`)).body.balance_cents as number;
  const withAutoTopUp = async (session: ApiSession) =>
    admin.request('PATCH', `/admin/accounts/${session.accountId}`, {
      auto_top_up: { threshold_cents: 800, amount_cents: 2_000 },
    });
  const intentsOf = (accountId: string) =>
    stripe.paymentIntents.filter(
      (intent) => (intent.metadata as Record<string, string>).switchboard_account_id === accountId,
    );
  const sendStripeEvent = (event: unknown) => {
    const raw = JSON.stringify(event);
    return fetch(`${system.publicUrl}/provider-webhooks/stripe`, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(raw, WEBHOOK_SECRET) },
    });
  };
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  };

  it("charges a live account's card on file at Stripe when a charge drops the balance below the threshold", async () => {
    const session = await ApiSession.create(system, { balance_cents: 1_000 });
    stripe.addCustomer(session.accountId);
    await withAutoTopUp(session);
    expect((await session.post('/numbers', body)).status).toBe(201);
    expect(await balanceOf(session.accountId)).toBe(500 + 2_000);
    const [intent] = intentsOf(session.accountId);
    expect(intent).toMatchObject({ amount: 2_000, currency: 'usd', status: 'succeeded' });
  });

  it('settles a PaymentIntent left processing when Stripe says it succeeded, once', async () => {
    const session = await ApiSession.create(system, { balance_cents: 1_000 });
    stripe.addCustomer(session.accountId);
    await withAutoTopUp(session);
    stripe.faults.push('processing');
    expect((await session.post('/numbers', body)).status).toBe(201);
    expect(await balanceOf(session.accountId)).toBe(500);
    const [intent] = intentsOf(session.accountId);
    const event = {
      id: `evt_${String(intent.id).slice(3)}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...intent, status: 'succeeded' } },
    };
    expect((await sendStripeEvent(event)).status).toBe(200);
    await eventually(async () => (await balanceOf(session.accountId)) === 2_500);
    expect(await balanceOf(session.accountId)).toBe(2_500);
    // Stripe sends it again: nothing changes.
    expect(await (await sendStripeEvent(event)).json()).toEqual({ received: true, duplicate: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await balanceOf(session.accountId)).toBe(2_500);
  });

  it('ends a processing attempt as declined when Stripe says the payment failed', async () => {
    const session = await ApiSession.create(system, { balance_cents: 1_000 });
    stripe.addCustomer(session.accountId);
    await withAutoTopUp(session);
    stripe.faults.push('processing');
    expect((await session.post('/numbers', body)).status).toBe(201);
    const [intent] = intentsOf(session.accountId);
    const failed = {
      id: `evt_f${String(intent.id).slice(4)}`,
      object: 'event',
      type: 'payment_intent.payment_failed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          ...intent,
          status: 'requires_payment_method',
          last_payment_error: { message: 'Insufficient funds.' },
        },
      },
    };
    expect((await sendStripeEvent(failed)).status).toBe(200);
    const attempts = () =>
      system.services['numbers-billing']!.get(NumbersBillingPrisma).autoTopUpAttempt.findMany({
        where: { account_id: session.accountId },
        select: { status: true, error: true },
      });
    await eventually(async () => (await attempts())[0]?.status === 'failed');
    expect(await attempts()).toEqual([{ status: 'failed', error: 'declined by Stripe: Insufficient funds.' }]);
    expect(await balanceOf(session.accountId)).toBe(500);
    // The attempt is over, so the next drop starts a new one, which goes through.
    expect((await session.post('/numbers', body)).status).toBe(201);
    expect(await balanceOf(session.accountId)).toBe(2_000);
  });

  it("never sends a test account's top-up to Stripe", async () => {
    const live = await ApiSession.create(system, { balance_cents: 1_000 });
    const test = await live.testMode();
    await admin.request('PATCH', `/admin/accounts/${test.accountId}`, {
      auto_top_up: { threshold_cents: 9_800, amount_cents: 2_000 },
    });
    const before = stripe.requests.length;
    expect((await test.post('/numbers', body)).status).toBe(201);
    expect(await balanceOf(test.accountId)).toBe(10_000 - 500 + 2_000);
    expect(stripe.requests.length).toBe(before);
  });

  it('ignores signed events that are not ours', async () => {
    const raw = {
      id: 'evt_other_1',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    };
    expect((await sendStripeEvent(raw)).status).toBe(200);
    // Retell's signature on Stripe's path is not Stripe's.
    const forged = await fetch(`${system.publicUrl}/provider-webhooks/stripe`, {
      method: 'POST',
      body: JSON.stringify(raw),
      headers: {
        'content-type': 'application/json',
        'stripe-signature': retellSignature(JSON.stringify(raw), WEBHOOK_SECRET),
      },
    });
    expect(forged.status).toBe(401);
  });
});
