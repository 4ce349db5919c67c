import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { stripeSignature } from '../provider-signatures';
import { StandInServer } from '../stand-in-server';

/**
 * A stand-in for the parts of Stripe's API that numbers-billing calls (written from Stripe's API reference:
 * https://docs.stripe.com/api): customers (create, retrieve, update, search), Checkout Sessions in setup mode with
 * their hosted page and SetupIntents (ADR 0131), PaymentIntent creation and listing, with Bearer-key authentication,
 * form-encoded bodies, and Stripe's error shape `{ "error": { "type", "code", "decline_code", "message" } }`. Not
 * Stripe: a test double that asserts what our adapter sends and answers as Stripe documents, not more kindly:
 * - idempotency: the status and body of the first request with an `Idempotency-Key` are saved once the endpoint
 *   began, 500s included, and every retry with that key gets them again (`Idempotent-Replayed: true`); a 429 is
 *   answered before that layer, so it is not saved (https://docs.stripe.com/api/idempotent_requests);
 * - a 500 carries `Stripe-Should-Retry: false`, as most of Stripe's do, so the SDK does not retry it;
 * - search is not read-after-write: a customer is found only `searchLagMs` after it was made (Stripe: "under normal
 *   operating conditions, data is searchable in less than a minute", https://docs.stripe.com/search); the list
 *   endpoints are consistent at once.
 * - Checkout: `url` is the stand-in's own page (`/checkout/pay/<session>`), where a person (or a test) "enters" a
 *   test card number; it makes the SetupIntent and the card's PaymentMethod attached to the session's customer,
 *   sends `checkout.session.completed` signed with `webhookSecret` to `webhookUrl` (when set), as Stripe does
 *   before it redirects, then redirects to the session's `success_url`.
 * Its answers are typed with the SDK's own types (`StandInPaymentIntent`...), so they cannot drift from Stripe's
 * published schema unnoticed (apps/numbers-billing/src/stand-in-answers.int-spec.ts).
 */
export type StripeFault =
  | 'card_declined'
  | 'authentication_required'
  | 'rate_limited'
  | 'server_error'
  /** The PaymentIntent is made and paid, and the answer is a 500 all the same (Stripe's outcome is indeterminate). */
  | 'server_error_after_charge'
  | 'hang'
  | 'processing';

/** The PaymentIntent fields the stand-in answers, each with the type the SDK (Stripe's OpenAPI) gives it. */
export const PAYMENT_INTENT_FIELDS = [
  'id',
  'object',
  'amount',
  'currency',
  'customer',
  'payment_method',
  'description',
  'confirmation_method',
  'metadata',
  'livemode',
  'status',
  'created',
  'last_payment_error',
] as const satisfies readonly (keyof Stripe.PaymentIntent)[];
export type StandInPaymentIntent = Pick<Stripe.PaymentIntent, (typeof PAYMENT_INTENT_FIELDS)[number]>;

export const CUSTOMER_FIELDS = [
  'id',
  'object',
  'created',
  'metadata',
  'invoice_settings',
  'livemode',
] as const satisfies readonly (keyof Stripe.Customer)[];
export type StandInCustomer = Pick<Stripe.Customer, (typeof CUSTOMER_FIELDS)[number]>;

export const CHECKOUT_SESSION_FIELDS = [
  'id',
  'object',
  'mode',
  'status',
  'customer',
  'client_reference_id',
  'currency',
  'metadata',
  'payment_method_types',
  'setup_intent',
  'success_url',
  'cancel_url',
  'url',
  'livemode',
  'created',
] as const satisfies readonly (keyof Stripe.Checkout.Session)[];
export type StandInCheckoutSession = Pick<Stripe.Checkout.Session, (typeof CHECKOUT_SESSION_FIELDS)[number]>;

export const SETUP_INTENT_FIELDS = [
  'id',
  'object',
  'status',
  'customer',
  'payment_method',
  'usage',
  'metadata',
  'livemode',
  'created',
] as const satisfies readonly (keyof Stripe.SetupIntent)[];
export type StandInSetupIntent = Pick<Stripe.SetupIntent, (typeof SETUP_INTENT_FIELDS)[number]>;

export type StandInPaymentMethod = Pick<Stripe.PaymentMethod, 'id' | 'object' | 'type' | 'customer' | 'livemode'> & {
  card: Pick<Stripe.PaymentMethod.Card, 'brand' | 'last4' | 'exp_month' | 'exp_year'>;
};

/** Stripe's test card numbers (https://docs.stripe.com/testing), by brand. */
const TEST_CARDS: Record<string, string> = {
  '4242424242424242': 'visa',
  '5555555555554444': 'mastercard',
  '378282246310005': 'amex',
};

export type StandInSearchResult = Pick<
  Stripe.ApiSearchResult<StandInCustomer>,
  'object' | 'url' | 'has_more' | 'data' | 'next_page'
>;
export type StandInList<T> = Pick<Stripe.ApiList<T>, 'object' | 'url' | 'has_more' | 'data'>;
export type StandInError = { error: Stripe.StripeRawError };

/** How long after it is made a customer turns up in search, by default: Stripe's "less than a minute". */
export const STRIPE_SEARCH_LAG_MS = 60_000;

export interface StripeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface StripeCustomer {
  id: string;
  accountId: string;
  defaultPaymentMethod: string | null;
  /** When it was made (ms); search finds it from `madeAt + searchLagMs`. */
  madeAt: number;
}

/** A Checkout Session, and its SetupIntent once the customer entered a card. */
interface StoredSession {
  session: StandInCheckoutSession;
  /** `setup_intent_data[metadata]`: the SetupIntent's metadata, as Stripe copies it. */
  setupIntentMetadata: Record<string, string>;
}

export class StripeStandIn extends StandInServer {
  readonly requests: StripeRequest[] = [];
  /** Faults answered to the next PaymentIntent creations, in order (one each). */
  readonly faults: StripeFault[] = [];
  private readonly customers: StripeCustomer[] = [];
  private readonly replays = new Map<
    string,
    { status: number; body: unknown; form: string; headers: Record<string, string> }
  >();
  private readonly intents: StandInPaymentIntent[] = [];
  private readonly sessions = new Map<string, StoredSession>();
  private readonly setupIntents = new Map<string, StandInSetupIntent>();
  private readonly paymentMethods = new Map<string, StandInPaymentMethod>();
  /** How long after it is made a customer turns up in search. */
  searchLagMs = STRIPE_SEARCH_LAG_MS;
  /** Where a completed Checkout sends `checkout.session.completed` (the gateway's `/provider-webhooks/stripe`). */
  webhookUrl: string | undefined;
  webhookSecret: string | undefined;
  /** The events sent to `webhookUrl`, with the status each was answered. */
  readonly deliveredEvents: { event: Record<string, unknown>; status: number }[] = [];

  constructor(readonly secretKey = `sk_test_${randomBytes(12).toString('hex')}`) {
    super();
  }

  /**
   * A customer tagged with the account, with a default card. `madeMsAgo`: when it was made; by default an hour ago
   * (prepared beforehand, long searchable); 0 is a customer made just now, which search does not find yet.
   */
  addCustomer(
    accountId: string,
    defaultPaymentMethod: string | null = 'pm_card_visa',
    options: { madeMsAgo?: number } = {},
  ): StripeCustomer {
    const customer = {
      id: `cus_${randomBytes(7).toString('hex')}`,
      accountId,
      defaultPaymentMethod,
      madeAt: Date.now() - (options.madeMsAgo ?? 60 * 60_000),
    };
    this.customers.push(customer);
    return customer;
  }

  /** Customers as Stripe keeps them (made by `addCustomer` or by `POST /v1/customers`). */
  get allCustomers(): readonly StripeCustomer[] {
    return this.customers;
  }

  /** Checkout Sessions created, oldest first. */
  get checkoutSessions(): StandInCheckoutSession[] {
    return [...this.sessions.values()].map((stored) => stored.session);
  }

  /** PaymentIntents created (not replays), as Stripe keeps them. */
  get paymentIntents(): StandInPaymentIntent[] {
    return this.intents;
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, received: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = received.toString('utf8');
    const request: StripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(body),
      headers: req.headers,
    };
    this.requests.push(request);
    const send = (status: number, answer: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(7).toString('hex')}`,
        ...headers,
      });
      res.end(JSON.stringify(answer));
    };
    // Checkout's hosted page is the customer's, in a browser: no API key.
    const page = /^\/checkout\/pay\/(cs_[A-Za-z0-9_]+)$/.exec(request.path);
    if (page) return this.checkoutPage(page[1], request, res);
    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      return send(401, stripeError('invalid_request_error', undefined, 'Invalid API Key provided.'));
    if (request.method === 'GET' && request.path === '/v1/customers/search') return send(200, this.search(request));
    if (request.method === 'GET' && request.path === '/v1/payment_intents') return send(200, this.list(request));
    if (request.method === 'POST' && req.headers['content-type'] !== 'application/x-www-form-urlencoded')
      return send(400, stripeError('invalid_request_error', undefined, 'Bodies are form-encoded.'));
    const customerPath = /^\/v1\/customers\/(cus_[A-Za-z0-9]+)$/.exec(request.path);
    if (request.method === 'POST' && request.path === '/v1/customers')
      return this.keyed(request, body, send, () => [200, this.customerView(this.createCustomer(request))]);
    if (customerPath && request.method === 'GET') return send(...this.retrieveCustomer(customerPath[1]));
    if (customerPath && request.method === 'POST') return send(...this.updateCustomer(customerPath[1], request));
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions')
      return this.keyed(request, body, send, () => this.createSession(request));
    const setupIntentPath = /^\/v1\/setup_intents\/(seti_[A-Za-z0-9]+)$/.exec(request.path);
    if (setupIntentPath && request.method === 'GET')
      return send(...this.retrieveSetupIntent(setupIntentPath[1], request));
    if (request.method === 'POST' && request.path === '/v1/payment_intents') {
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string') {
        const replay = this.replays.get(key);
        if (replay && replay.form !== body)
          return send(
            400,
            stripeError(
              'idempotency_error',
              undefined,
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            ),
          );
        if (replay) return send(replay.status, replay.body, { ...replay.headers, 'idempotent-replayed': 'true' });
      }
      const fault = this.faults.shift();
      if (fault === 'hang') return; // never answers: the client's timeout decides
      // The rate limiter runs before the idempotency layer: a 429 is not saved, a retry with the key runs anew.
      if (fault === 'rate_limited')
        return send(
          429,
          stripeError('invalid_request_error', 'rate_limit', 'Too many requests hit the API too quickly.'),
          { 'retry-after': '1' },
        );
      let [status, answer]: [number, unknown] = [500, undefined];
      const headers: Record<string, string> = {};
      if (fault === 'server_error' || fault === 'server_error_after_charge') {
        if (fault === 'server_error_after_charge') this.createIntent(request, undefined);
        answer = stripeError('api_error', undefined, 'Something went wrong on Stripe’s end.');
        headers['stripe-should-retry'] = 'false';
      } else [status, answer] = this.createIntent(request, fault);
      // Saved once the endpoint began, whatever it answered, 500s included.
      if (typeof key === 'string') this.replays.set(key, { status, body: answer, form: body, headers });
      return send(status, answer, headers);
    }
    send(
      404,
      stripeError(
        'invalid_request_error',
        'resource_missing',
        `Unrecognized request URL (${request.method}: ${request.path}).`,
      ),
    );
  }

  /** A keyed POST without faults: the first answer is saved and replayed for the key, as for PaymentIntents. */
  private keyed(
    request: StripeRequest,
    body: string,
    send: (status: number, answer: unknown, headers?: Record<string, string>) => void,
    make: () => [number, unknown],
  ): void {
    const key = request.headers['idempotency-key'];
    const replay = typeof key === 'string' ? this.replays.get(key) : undefined;
    if (replay && replay.form !== body)
      return send(
        400,
        stripeError(
          'idempotency_error',
          undefined,
          'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        ),
      );
    if (replay) return send(replay.status, replay.body, { ...replay.headers, 'idempotent-replayed': 'true' });
    const [status, answer] = make();
    if (typeof key === 'string') this.replays.set(key, { status, body: answer, form: body, headers: {} });
    send(status, answer);
  }

  /** `POST /v1/customers`: made now, so search finds it only `searchLagMs` later (retrieve finds it at once). */
  private createCustomer(request: StripeRequest): StripeCustomer {
    const customer: StripeCustomer = {
      id: `cus_${randomBytes(7).toString('hex')}`,
      accountId: request.form.get('metadata[switchboard_account_id]') ?? '',
      defaultPaymentMethod: null,
      madeAt: Date.now(),
    };
    this.customers.push(customer);
    return customer;
  }

  private retrieveCustomer(id: string): [number, unknown] {
    const customer = this.customers.find((candidate) => candidate.id === id);
    if (!customer) return [404, noSuchObject('customer', id)];
    return [200, this.customerView(customer)];
  }

  /** `POST /v1/customers/:id` with `invoice_settings[default_payment_method]`: one attached to this customer. */
  private updateCustomer(id: string, request: StripeRequest): [number, unknown] {
    const customer = this.customers.find((candidate) => candidate.id === id);
    if (!customer) return [404, noSuchObject('customer', id)];
    const method = request.form.get('invoice_settings[default_payment_method]');
    if (method !== null) {
      if (this.paymentMethods.get(method)?.customer !== id)
        return [
          400,
          stripeError(
            'invalid_request_error',
            'resource_missing',
            `No such PaymentMethod: '${method}'; It must be attached to the customer to be its default.`,
          ),
        ];
      customer.defaultPaymentMethod = method;
    }
    return [200, this.customerView(customer)];
  }

  /** `POST /v1/checkout/sessions`: setup mode only (all we use), for an existing customer. */
  private createSession(request: StripeRequest): [number, unknown] {
    const form = request.form;
    const invalid = (message: string, param?: string): [number, unknown] => {
      const error = stripeError('invalid_request_error', 'parameter_invalid', message);
      if (param) Object.assign(error.error, { param });
      return [400, error];
    };
    if (form.get('mode') !== 'setup')
      return invalid('The stand-in makes Checkout Sessions in setup mode only.', 'mode');
    const customer = this.customers.find((candidate) => candidate.id === form.get('customer'));
    if (!customer) return invalid(`No such customer: '${form.get('customer')}'`, 'customer');
    const listed = (param: string) =>
      [...form.entries()].filter(([name]) => name.startsWith(`${param}[`)).map(([, value]) => value);
    // A static list (`payment_method_types`) or a filter on the dynamic set (`allowed_payment_method_types`).
    const methodTypes = listed('payment_method_types');
    if (methodTypes.length === 0) methodTypes.push(...listed('allowed_payment_method_types'));
    // Dynamic payment methods (no payment_method_types) need the currency in setup mode.
    if (listed('payment_method_types').length === 0 && !form.get('currency'))
      return invalid('currency is required in setup mode when payment_method_types is not set.', 'currency');
    const successUrl = form.get('success_url');
    if (!successUrl || !/^https?:\/\//.test(successUrl)) return invalid('Not a valid URL', 'success_url');
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const session: StandInCheckoutSession = {
      id,
      object: 'checkout.session',
      mode: 'setup',
      status: 'open',
      customer: customer.id,
      client_reference_id: form.get('client_reference_id'),
      currency: form.get('currency'),
      metadata: metadataOf(form),
      payment_method_types: methodTypes.length > 0 ? methodTypes : ['card'],
      setup_intent: null,
      success_url: successUrl,
      cancel_url: form.get('cancel_url'),
      url: `${this.url}/checkout/pay/${id}`,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    const setupIntentMetadata = Object.fromEntries(
      [...form.entries()]
        .filter(([name]) => name.startsWith('setup_intent_data[metadata]['))
        .map(([name, value]) => [name.slice('setup_intent_data[metadata]['.length, -1), value]),
    );
    this.sessions.set(id, { session, setupIntentMetadata });
    return [200, { ...session }];
  }

  /** `GET /v1/setup_intents/:id`, `expand[]=payment_method` giving the PaymentMethod object. */
  private retrieveSetupIntent(id: string, request: StripeRequest): [number, unknown] {
    const intent = this.setupIntents.get(id);
    if (!intent) return [404, noSuchObject('setup_intent', id)];
    const expand = request.query.getAll('expand[]').concat(request.query.getAll('expand[0]'));
    if (expand.includes('payment_method') && typeof intent.payment_method === 'string')
      return [200, { ...intent, payment_method: this.paymentMethods.get(intent.payment_method) }];
    return [200, { ...intent }];
  }

  /**
   * The customer on Checkout's page: GET shows a form for a card number; POST makes the SetupIntent (succeeded) and
   * the card's PaymentMethod attached to the customer, completes the session, sends `checkout.session.completed`
   * and redirects to `success_url`. An unknown test card number is refused on the page, as Checkout does.
   */
  private async checkoutPage(id: string, request: StripeRequest, res: ServerResponse): Promise<void> {
    const stored = this.sessions.get(id);
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe stand-in Checkout</title></head><body>${body}</body></html>`,
      );
    };
    if (!stored) return html(404, '<h1>This Checkout Session does not exist.</h1>');
    if (stored.session.status !== 'open') return html(410, '<h1>This Checkout Session is no longer open.</h1>');
    if (request.method === 'GET')
      return html(
        200,
        `<main><h1>Set up a card (Stripe stand-in)</h1><form method="post"><label>Card number <input name="card_number" autocomplete="off"></label><button type="submit">Save card</button></form>${stored.session.cancel_url ? `<a href="${escapeHtml(stored.session.cancel_url)}">Back</a>` : ''}</main>`,
      );
    const number = (request.form.get('card_number') ?? '').replace(/\s/g, '');
    const completed = this.completeCheckout(id, number);
    if ('refused' in completed) return html(402, `<p role="alert">${escapeHtml(completed.refused)}</p>`);
    await this.deliver(completed.event);
    res.writeHead(303, { location: stored.session.success_url!.replace('{CHECKOUT_SESSION_ID}', id) });
    res.end();
  }

  /**
   * The customer entered `cardNumber` on the session's page: the SetupIntent succeeds with the card's PaymentMethod,
   * attached to the customer. Answers the `checkout.session.completed` event Stripe sends for it.
   */
  completeCheckout(
    sessionId: string,
    cardNumber = '4242424242424242',
  ): { event: Record<string, unknown> } | { refused: string } {
    const stored = this.sessions.get(sessionId);
    if (!stored || stored.session.status !== 'open') return { refused: 'This Checkout Session is not open.' };
    const brand = TEST_CARDS[cardNumber];
    if (!brand) return { refused: 'Your card number is invalid.' };
    const customer = stored.session.customer as string;
    const method: StandInPaymentMethod = {
      id: `pm_${randomBytes(12).toString('hex')}`,
      object: 'payment_method',
      type: 'card',
      customer,
      livemode: false,
      card: { brand, last4: cardNumber.slice(-4), exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 },
    };
    this.paymentMethods.set(method.id, method);
    const intent: StandInSetupIntent = {
      id: `seti_${randomBytes(12).toString('hex')}`,
      object: 'setup_intent',
      status: 'succeeded',
      customer,
      payment_method: method.id,
      usage: 'off_session',
      metadata: { ...stored.setupIntentMetadata },
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    this.setupIntents.set(intent.id, intent);
    stored.session = { ...stored.session, status: 'complete', setup_intent: intent.id };
    return {
      event: {
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        type: 'checkout.session.completed',
        api_version: '2025-09-30.clover',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object: { ...stored.session } },
      },
    };
  }

  /** Sends an event, signed, to `webhookUrl` (Stripe's webhook delivery), when one is set. */
  async deliver(event: Record<string, unknown>): Promise<void> {
    if (!this.webhookUrl || !this.webhookSecret) return;
    const raw = JSON.stringify(event);
    const response = await fetch(this.webhookUrl, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(raw, this.webhookSecret) },
    });
    this.deliveredEvents.push({ event, status: response.status });
  }

  private customerView(customer: StripeCustomer): StandInCustomer {
    return {
      id: customer.id,
      object: 'customer',
      created: Math.floor(customer.madeAt / 1000),
      metadata: { switchboard_account_id: customer.accountId },
      invoice_settings: {
        custom_fields: null,
        default_payment_method: customer.defaultPaymentMethod,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
    };
  }

  private search(request: StripeRequest): StandInSearchResult {
    const match = /^metadata\['switchboard_account_id'\]:'([^']+)'$/.exec(request.query.get('query') ?? '');
    const now = Date.now();
    const data = this.customers
      .filter((customer) => match && customer.accountId === match[1] && customer.madeAt + this.searchLagMs <= now)
      .map((customer) => this.customerView(customer));
    return { object: 'search_result', url: '/v1/customers/search', has_more: false, next_page: null, data };
  }

  /** `GET /v1/payment_intents?customer=&created[gte]=`: newest first, consistent at once (not search). */
  private list(request: StripeRequest): StandInList<StandInPaymentIntent> {
    const customer = request.query.get('customer');
    const since = Number(request.query.get('created[gte]') ?? 0);
    const limit = Math.min(Number(request.query.get('limit') ?? 10), 100);
    const data = this.intents
      .filter((intent) => (!customer || intent.customer === customer) && intent.created >= since)
      .reverse();
    return { object: 'list', url: '/v1/payment_intents', has_more: data.length > limit, data: data.slice(0, limit) };
  }

  private createIntent(request: StripeRequest, fault: StripeFault | undefined): [number, unknown] {
    const form = request.form;
    const metadata = metadataOf(form);
    const intent: StandInPaymentIntent = {
      id: `pi_${randomBytes(12).toString('hex')}`,
      object: 'payment_intent',
      amount: Number(form.get('amount')),
      currency: form.get('currency') ?? '',
      customer: form.get('customer'),
      payment_method: form.get('payment_method'),
      description: form.get('description'),
      confirmation_method: 'automatic',
      metadata,
      livemode: false,
      status: fault === 'processing' ? 'processing' : 'succeeded',
      created: Math.floor(Date.now() / 1000),
      last_payment_error: null,
    };
    this.intents.push(intent);
    if (fault === 'card_declined' || fault === 'authentication_required') {
      const message =
        fault === 'card_declined' ? 'Your card has insufficient funds.' : 'This payment requires authentication.';
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: fault, message },
      });
      const error = stripeError('card_error', fault, message);
      Object.assign(error.error, {
        decline_code: fault === 'card_declined' ? 'insufficient_funds' : 'authentication_required',
        payment_intent: intent,
      });
      return [402, error];
    }
    return [200, { ...intent }];
  }
}

function metadataOf(form: URLSearchParams): Record<string, string> {
  return Object.fromEntries(
    [...form.entries()]
      .filter(([name]) => name.startsWith('metadata['))
      .map(([name, value]) => [name.slice(9, -1), value]),
  );
}

function noSuchObject(kind: string, id: string): StandInError {
  return stripeError('invalid_request_error', 'resource_missing', `No such ${kind}: '${id}'`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function stripeError(type: Stripe.StripeRawError['type'], code: string | undefined, message: string): StandInError {
  return { error: { type, ...(code ? { code } : {}), message } };
}
