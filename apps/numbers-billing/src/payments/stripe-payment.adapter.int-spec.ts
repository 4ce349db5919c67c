import { STRIPE_SEARCH_LAG_MS, StripeStandIn } from '../../../../test/stand-ins/stripe/stripe-stand-in';
import { PaymentDeclined, PaymentPending, PaymentUnavailable } from './payment-gateway.port';
import { StripePaymentAdapter, createStripeClient } from './stripe-payment.adapter';

jest.setTimeout(30_000);

/** The Stripe adapter against the Stripe stand-in: what it sends, and how it reads each of Stripe's answers. */
describe('StripePaymentAdapter', () => {
  const standIn = new StripeStandIn();
  let adapter: StripePaymentAdapter;
  const charge = (customerRef: string, idempotencyKey: string, attemptedAt = new Date()) =>
    adapter.charge({
      customerRef,
      amountCents: 2_500,
      idempotencyKey,
      description: 'Switchboard auto-top-up',
      attemptedAt,
    });
  const creates = () =>
    standIn.requests.filter((request) => request.path === '/v1/payment_intents' && request.method === 'POST');

  beforeAll(async () => {
    const url = await standIn.start();
    adapter = new StripePaymentAdapter(
      await createStripeClient({ secretKey: standIn.secretKey, apiBaseUrl: new URL(url) }),
    );
  });

  afterAll(() => standIn.stop());

  beforeEach(() => {
    standIn.requests.length = 0;
    standIn.faults.length = 0;
    standIn.searchLagMs = STRIPE_SEARCH_LAG_MS;
  });

  it("charges the account's customer off-session on its default card, keyed by the attempt", async () => {
    const customer = standIn.addCustomer('acct_stripe00000000000001', 'pm_card_visa');
    const { paymentId } = await charge('acct_stripe00000000000001', '7d2f1c9e-0000-4000-8000-000000000001');
    expect(paymentId).toMatch(/^pi_/);
    const create = standIn.requests.find((request) => request.path === '/v1/payment_intents')!;
    expect(create.headers['idempotency-key']).toBe('7d2f1c9e-0000-4000-8000-000000000001');
    expect(Object.fromEntries(create.form)).toMatchObject({
      amount: '2500',
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      off_session: 'true',
      confirm: 'true',
      'metadata[switchboard_account_id]': 'acct_stripe00000000000001',
      'metadata[switchboard_top_up_attempt]': '7d2f1c9e-0000-4000-8000-000000000001',
    });
    // No card data anywhere in what we send.
    expect([...create.form.keys()].some((name) => /card\[|number|cvc/.test(name))).toBe(false);
  });

  it('answers the first PaymentIntent again for the same attempt: one charge', async () => {
    standIn.addCustomer('acct_stripe00000000000002');
    const first = await charge('acct_stripe00000000000002', '7d2f1c9e-0000-4000-8000-000000000002');
    const again = await charge('acct_stripe00000000000002', '7d2f1c9e-0000-4000-8000-000000000002');
    expect(again.paymentId).toBe(first.paymentId);
    const made = standIn.paymentIntents.filter(
      (intent) => (intent.metadata as Record<string, string>).switchboard_account_id === 'acct_stripe00000000000002',
    );
    expect(made).toHaveLength(1);
  });

  it('reads a declined card and an off-session payment that needs the customer as declines', async () => {
    standIn.addCustomer('acct_stripe00000000000003');
    standIn.faults.push('card_declined');
    await expect(charge('acct_stripe00000000000003', '7d2f1c9e-0000-4000-8000-000000000003')).rejects.toThrow(
      PaymentDeclined,
    );
    standIn.faults.push('authentication_required');
    await expect(charge('acct_stripe00000000000003', '7d2f1c9e-0000-4000-8000-000000000004')).rejects.toThrow(
      /authentication/,
    );
  });

  it('declines an account without a Stripe customer or without a card on file, before any charge', async () => {
    // An attempt begun two hours ago: far longer than Stripe's search can lag.
    const longAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await expect(charge('acct_stripe00000000000099', '7d2f1c9e-0000-4000-8000-000000000005', longAgo)).rejects.toThrow(
      /no Stripe customer/,
    );
    standIn.addCustomer('acct_stripe00000000000004', null);
    await expect(charge('acct_stripe00000000000004', '7d2f1c9e-0000-4000-8000-000000000006')).rejects.toThrow(
      /no default payment method/,
    );
    expect(standIn.requests.some((request) => request.path === '/v1/payment_intents')).toBe(false);
  });

  it('reads a 429 as an unknown outcome (asked again later with the same key), which Stripe does not save', async () => {
    standIn.addCustomer('acct_stripe00000000000005');
    standIn.faults.push('rate_limited');
    await expect(charge('acct_stripe00000000000005', '7d2f1c9e-0000-4000-8000-000000000007')).rejects.toThrow(
      PaymentUnavailable,
    );
    // The attempt's next try (after its lease) uses the same key and goes through.
    await expect(charge('acct_stripe00000000000005', '7d2f1c9e-0000-4000-8000-000000000007')).resolves.toMatchObject({
      paymentId: expect.stringMatching(/^pi_/),
    });
  });

  it('leaves a 500 pending, then ends the attempt as declined when Stripe replays the 500 and made nothing', async () => {
    standIn.addCustomer('acct_stripe00000000000008');
    standIn.faults.push('server_error');
    // Stripe-Should-Retry: false: the SDK does not retry it; the outcome is unknown, the attempt stays pending.
    await expect(charge('acct_stripe00000000000008', '7d2f1c9e-0000-4000-8000-000000000008')).rejects.toThrow(
      PaymentUnavailable,
    );
    expect(creates()).toHaveLength(1);
    // The attempt's next try, after its lease: Stripe answers the key with the saved 500, and the customer's
    // PaymentIntents hold none for the attempt, so nothing was charged and the key can never charge.
    await expect(charge('acct_stripe00000000000008', '7d2f1c9e-0000-4000-8000-000000000008')).rejects.toThrow(
      new PaymentDeclined('Stripe failed the charge (HTTP 500) and made no PaymentIntent for it'),
    );
    expect(creates().map((request) => request.headers['idempotency-key'])).toEqual([
      '7d2f1c9e-0000-4000-8000-000000000008',
      '7d2f1c9e-0000-4000-8000-000000000008',
    ]);
    expect(standIn.requests.some((request) => request.method === 'GET' && request.path === '/v1/payment_intents')).toBe(
      true,
    );
  });

  it("credits a 500 whose PaymentIntent Stripe did make, found in the customer's list on the next try", async () => {
    const customer = standIn.addCustomer('acct_stripe00000000000010');
    standIn.faults.push('server_error_after_charge');
    await expect(charge('acct_stripe00000000000010', '7d2f1c9e-0000-4000-8000-000000000010')).rejects.toThrow(
      PaymentUnavailable,
    );
    const [made] = standIn.paymentIntents.filter((intent) => intent.customer === customer.id);
    expect(made).toMatchObject({ status: 'succeeded' });
    await expect(charge('acct_stripe00000000000010', '7d2f1c9e-0000-4000-8000-000000000010')).resolves.toEqual({
      paymentId: made.id,
    });
    // Charged once.
    expect(standIn.paymentIntents.filter((intent) => intent.customer === customer.id)).toHaveLength(1);
  });

  it('asks again later, not declines, for a customer tagged a moment ago that search does not find yet', async () => {
    standIn.addCustomer('acct_stripe00000000000011', 'pm_card_visa', { madeMsAgo: 0 });
    await expect(charge('acct_stripe00000000000011', '7d2f1c9e-0000-4000-8000-000000000012')).rejects.toThrow(
      PaymentUnavailable,
    );
    expect(creates()).toHaveLength(0);
    // A minute later search finds it: the same attempt, asked again, is charged.
    standIn.searchLagMs = 0;
    await expect(charge('acct_stripe00000000000011', '7d2f1c9e-0000-4000-8000-000000000012')).resolves.toMatchObject({
      paymentId: expect.stringMatching(/^pi_/),
    });
  });

  it('reads a Stripe that does not answer in time as an unknown outcome', async () => {
    const impatient = new StripePaymentAdapter(
      await createStripeClient({ secretKey: standIn.secretKey, apiBaseUrl: new URL(standIn.url) }, { timeoutMs: 200 }),
    );
    standIn.addCustomer('acct_stripe00000000000007');
    standIn.faults.push('hang', 'hang');
    await expect(
      impatient.charge({
        customerRef: 'acct_stripe00000000000007',
        amountCents: 500,
        idempotencyKey: '7d2f1c9e-0000-4000-8000-000000000011',
        description: 'Switchboard auto-top-up',
        attemptedAt: new Date(),
      }),
    ).rejects.toThrow(PaymentUnavailable);
  });

  it('reads a PaymentIntent still processing as pending, not as paid', async () => {
    standIn.addCustomer('acct_stripe00000000000006');
    standIn.faults.push('processing');
    const error = await charge('acct_stripe00000000000006', '7d2f1c9e-0000-4000-8000-000000000009').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PaymentPending);
    expect((error as PaymentPending).paymentId).toMatch(/^pi_/);
  });
});
