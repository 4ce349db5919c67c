import { randomBytes } from 'node:crypto';
import { LOGGER, type Logger } from '@switchboard/observability';
import { StripeStandIn } from '../stand-ins/stripe/stripe-stand-in';
import { AdminClient, ApiSession, ConsoleClient, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(120_000);

const WEBHOOK_SECRET = 'whsec_e2eStripeCardSetup0123456789';
const PASSWORD = 'plum tuesday lantern 42';

/**
 * Issue 48: an owner connects the account's card from the console's Billing page (docs/adr/0131), against the Stripe
 * stand-in: the account's customer is made once (tagged with the account, its id stored), each click makes a
 * Checkout Session in setup mode that returns to the Billing page; Stripe's signed `checkout.session.completed` makes
 * the SetupIntent's card the customer's default; and the next auto-top-up charges that customer, retrieved by its
 * stored id while Stripe's search cannot find it yet.
 */
describe('an owner connects a card through Stripe Checkout', () => {
  const stripe = new StripeStandIn();
  let system: RunningSystem;
  let admin: AdminClient;
  let emails = 0;

  beforeAll(async () => {
    const url = await stripe.start();
    system = await startSystem({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    });
    stripe.webhookUrl = `${system.publicUrl}/provider-webhooks/stripe`;
    stripe.webhookSecret = WEBHOOK_SECRET;
    admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
  });

  afterAll(async () => {
    await system?.stop();
    await stripe.stop();
  });

  async function member(accountId: string, role: string): Promise<ConsoleClient> {
    const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, {
      email: `card${emails++}-${role}@example.com`,
      role,
    });
    expect(invited.status).toBe(201);
    const client = new ConsoleClient(system);
    const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
    expect((await client.post('/invites/accept', { token, password: PASSWORD })).status).toBe(200);
    return client;
  }

  const posts = (path: string) => stripe.requests.filter((r) => r.method === 'POST' && r.path === path);

  it('makes the customer once, sends the owner to Checkout in setup mode, sets the card, and auto-top-up charges it', async () => {
    const session = await ApiSession.create(system, { balance_cents: 1_000 });
    const owner = await member(session.accountId, 'owner');
    const billingUrl = `${system.publicUrl}/console/money`;

    expect((await owner.get('/payment-method')).body).toEqual({ processor: 'stripe', card: null });

    // Two clicks on "Add a card" (from the page, which sends its Origin: Checkout returns to the console it is on):
    // two Checkout Sessions, one customer, made with the account's idempotency key.
    const fromPage = { headers: { origin: system.publicUrl } };
    const first = await owner.post('/payment-method/setup', undefined, fromPage);
    expect(first.status).toBe(201);
    const second = await owner.post('/payment-method/setup', undefined, fromPage);
    expect(second.status).toBe(201);
    const customers = posts('/v1/customers');
    expect(customers).toHaveLength(1);
    expect(customers[0].form.get('metadata[switchboard_account_id]')).toBe(session.accountId);
    expect(customers[0].headers['idempotency-key']).toBe(`switchboard-customer-${session.accountId}`);
    const customer = stripe.allCustomers.find((c) => c.accountId === session.accountId)!;
    expect(customer.defaultPaymentMethod).toBeNull();

    const sessions = posts('/v1/checkout/sessions');
    expect(sessions).toHaveLength(2);
    expect(Object.fromEntries(sessions[0].form)).toEqual({
      mode: 'setup',
      customer: customer.id,
      currency: 'usd',
      'allowed_payment_method_types[0]': 'card',
      client_reference_id: session.accountId,
      'metadata[switchboard_account_id]': session.accountId,
      'setup_intent_data[metadata][switchboard_account_id]': session.accountId,
      success_url: `${billingUrl}?card=added`,
      cancel_url: `${billingUrl}?card=cancelled`,
    });
    expect(sessions[1].form.get('success_url')).toBe(`${billingUrl}?card=added`);
    // Without an Origin (not from the page), the way back is CONSOLE_URL's (here its default, on port 3000).
    expect((await owner.post('/payment-method/setup')).status).toBe(201);
    expect(posts('/v1/checkout/sessions')[2].form.get('success_url')).toBe(
      'http://127.0.0.1:3000/console/money?card=added',
    );
    expect(posts('/v1/customers')).toHaveLength(1);
    const [made] = stripe.checkoutSessions.filter((s) => s.customer === customer.id);
    expect(first.body).toEqual({ url: made.url });
    expect(made.url).toMatch(new RegExp(`^${stripe.url}/checkout/pay/cs_test_`));

    // The owner enters a Mastercard on Stripe's page: Stripe sends the signed event, then the browser back.
    const paid = await fetch(first.body.url, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '5555 5555 5555 4444' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${billingUrl}?card=added`);
    expect(stripe.deliveredEvents.at(-1)).toMatchObject({
      status: 200,
      event: { type: 'checkout.session.completed', data: { object: { id: made.id, mode: 'setup' } } },
    });

    const card = await waitFor(async () => {
      const answer = (await owner.get('/payment-method')).body;
      return answer.card === null ? undefined : answer;
    });
    expect(card).toEqual({ processor: 'stripe', card: { brand: 'mastercard', last4: '4444' } });
    expect(customer.defaultPaymentMethod).toMatch(/^pm_/);
    const update = posts(`/v1/customers/${customer.id}`);
    expect(update.map((r) => r.form.get('invoice_settings[default_payment_method]'))).toEqual([
      customer.defaultPaymentMethod,
    ]);

    // The customer was made moments ago: search would not find it yet; auto-top-up retrieves it by its stored id.
    expect(
      (
        await admin.request('PATCH', `/admin/accounts/${session.accountId}`, {
          auto_top_up: { threshold_cents: 800, amount_cents: 2_000 },
        })
      ).status,
    ).toBe(200);
    const before = stripe.requests.length;
    expect((await session.post('/numbers', { business_phone: '+14155550123', area_code: '415' })).status).toBe(201);
    expect((await admin.request('GET', `/admin/accounts/${session.accountId}`)).body.balance_cents).toBe(500 + 2_000);
    const during = stripe.requests.slice(before);
    expect(during.filter((r) => r.path === '/v1/customers/search')).toEqual([]);
    expect(during.filter((r) => r.method === 'GET' && r.path === `/v1/customers/${customer.id}`)).toHaveLength(1);
    const intent = stripe.paymentIntents.find((i) => i.customer === customer.id);
    expect(intent).toMatchObject({
      amount: 2_000,
      currency: 'usd',
      payment_method: customer.defaultPaymentMethod,
      status: 'succeeded',
    });
  });

  it('lets only owners start a card setup, and reads the card to every role', async () => {
    const session = await ApiSession.create(system);
    const viewer = await member(session.accountId, 'viewer');
    const refused = await viewer.post('/payment-method/setup');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await viewer.get('/payment-method')).body).toEqual({ processor: 'stripe', card: null });
    expect(stripe.allCustomers.filter((c) => c.accountId === session.accountId)).toEqual([]);
  });

  /** A Checkout Session in setup mode made straight at Stripe (not by us), for `customerId`. */
  async function strangersSession(customerId: string): Promise<{ id: string; url: string }> {
    const created = await fetch(`${stripe.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stripe.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        mode: 'setup',
        customer: customerId,
        currency: 'usd',
        success_url: 'https://elsewhere.example/done',
      }),
    });
    return (await created.json()) as { id: string; url: string };
  }

  it('ignores a completed Checkout for a customer that is not one of ours', async () => {
    const stranger = stripe.addCustomer('acct_not_ours', null);
    const { url } = await strangersSession(stranger.id);
    const paid = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '4242424242424242' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(stripe.deliveredEvents.at(-1)?.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stranger.defaultPaymentMethod).toBeNull();
  });

  it("settles once, with one log line and no more Stripe calls, a completed Checkout whose SetupIntent Stripe does not know or is another customer's", async () => {
    const session = await ApiSession.create(system);
    const owner = await member(session.accountId, 'owner');
    expect((await owner.post('/payment-method/setup')).status).toBe(201);
    const ours = stripe.allCustomers.find((c) => c.accountId === session.accountId)!;
    // Another customer's card, saved through a Checkout of theirs (its event is not sent to us).
    const stranger = stripe.addCustomer('acct_someone_else', null);
    const theirs = stripe.completeCheckout((await strangersSession(stranger.id)).id);
    const theirIntent = (theirs as { event: { data: { object: { setup_intent: string } } } }).event.data.object
      .setup_intent;
    const unknownIntent = `seti_${randomBytes(12).toString('hex')}`;
    // Signed events naming our customer, each with a SetupIntent that is not the customer's to use.
    const completed = (setupIntent: string) => ({
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: `cs_test_${randomBytes(16).toString('hex')}`,
          object: 'checkout.session',
          mode: 'setup',
          status: 'complete',
          customer: ours.id,
          setup_intent: setupIntent,
        },
      },
    });
    const events = [completed(unknownIntent), completed(theirIntent)];

    const logger = system.services['numbers-billing']!.get<Logger>(LOGGER);
    const spies = (['info', 'warn', 'error'] as const).map((level) => jest.spyOn(logger, level));
    const lines = () =>
      spies.flatMap((spy, level) =>
        spy.mock.calls.map((args) => ({ level: ['info', 'warn', 'error'][level], text: JSON.stringify(args) })),
      );
    try {
      for (const event of events) await stripe.deliver(event);
      expect(stripe.deliveredEvents.slice(-2).map((delivered) => delivered.status)).toEqual([200, 200]);
      const asked = (intent: string) => stripe.requests.filter((r) => r.path === `/v1/setup_intents/${intent}`);
      await waitFor(() => (asked(unknownIntent).length > 0 && asked(theirIntent).length > 0 ? true : undefined));
      // A few seconds more: a consumer that retried would have asked Stripe again about once a second.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect([asked(unknownIntent).length, asked(theirIntent).length]).toEqual([1, 1]);

      for (const [event, reason] of [
        [events[0], /resource_missing: No such setup_intent/],
        [events[1], new RegExp(`belongs to customer ${stranger.id}, not to the event's ${ours.id}`)],
      ] as const) {
        const said = lines().filter((line) => line.text.includes(event.id));
        expect(said).toHaveLength(1);
        expect(said[0].level).toBe('warn');
        expect(said[0].text).toContain('Stripe card setup refused');
        expect(said[0].text).toMatch(reason);
      }
      expect(lines().filter((line) => line.text.includes('event handler failed'))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    // Nothing attached: neither customer changed, and the account shows no card.
    expect(posts(`/v1/customers/${ours.id}`)).toEqual([]);
    expect(ours.defaultPaymentMethod).toBeNull();
    expect(stranger.defaultPaymentMethod).toBeNull();
    expect((await owner.get('/payment-method')).body).toEqual({ processor: 'stripe', card: null });
  });
});
