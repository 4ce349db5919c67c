import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { StandInServer } from '../stand-in-server';

/**
 * A stand-in for the parts of Stripe's API that numbers-billing calls (written from Stripe's API reference:
 * https://docs.stripe.com/api): customer search, PaymentIntent creation and listing, with Bearer-key authentication,
 * form-encoded bodies, and Stripe's error shape `{ "error": { "type", "code", "decline_code", "message" } }`. Not
 * Stripe: a test double that asserts what our adapter sends and answers as Stripe documents, not more kindly:
 * - idempotency: the status and body of the first request with an `Idempotency-Key` are saved once the endpoint
 *   began, 500s included, and every retry with that key gets them again (`Idempotent-Replayed: true`); a 429 is
 *   answered before that layer, so it is not saved (https://docs.stripe.com/api/idempotent_requests);
 * - a 500 carries `Stripe-Should-Retry: false`, as most of Stripe's do, so the SDK does not retry it;
 * - search is not read-after-write: a customer is found only `searchLagMs` after it was made (Stripe: "under normal
 *   operating conditions, data is searchable in less than a minute", https://docs.stripe.com/search); the list
 *   endpoints are consistent at once.
 * Its answers are typed with the SDK's own types (`StandInPaymentIntent`...), so they cannot drift from Stripe's
 * published schema unnoticed (test/stand-ins/stand-in-answers.spec.ts).
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
  /** How long after it is made a customer turns up in search. */
  searchLagMs = STRIPE_SEARCH_LAG_MS;

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
    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      return send(401, stripeError('invalid_request_error', undefined, 'Invalid API Key provided.'));
    if (request.method === 'GET' && request.path === '/v1/customers/search') return send(200, this.search(request));
    if (request.method === 'GET' && request.path === '/v1/payment_intents') return send(200, this.list(request));
    if (request.method === 'POST' && request.path === '/v1/payment_intents') {
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
        return send(400, stripeError('invalid_request_error', undefined, 'Bodies are form-encoded.'));
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

  private search(request: StripeRequest): StandInSearchResult {
    const match = /^metadata\['switchboard_account_id'\]:'([^']+)'$/.exec(request.query.get('query') ?? '');
    const now = Date.now();
    const data = this.customers
      .filter((customer) => match && customer.accountId === match[1] && customer.madeAt + this.searchLagMs <= now)
      .map((customer): StandInCustomer => ({
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
      }));
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
    const metadata = Object.fromEntries(
      [...form.entries()]
        .filter(([name]) => name.startsWith('metadata['))
        .map(([name, value]) => [name.slice(9, -1), value]),
    );
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

function stripeError(type: Stripe.StripeRawError['type'], code: string | undefined, message: string): StandInError {
  return { error: { type, ...(code ? { code } : {}), message } };
}
