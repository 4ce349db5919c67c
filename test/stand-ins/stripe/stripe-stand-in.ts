import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StandInServer } from '../stand-in-server';

/**
 * A stand-in for the parts of Stripe's API that numbers-billing calls (written from Stripe's API reference:
 * https://docs.stripe.com/api): customer search and PaymentIntent creation, with Bearer-key authentication,
 * form-encoded bodies, idempotent replay of a repeated `Idempotency-Key`, and Stripe's error shape
 * `{ "error": { "type", "code", "decline_code", "message" } }`. Not Stripe: a test double that asserts what our
 * adapter sends and answers as Stripe would, failures included.
 */
export type StripeFault =
  'card_declined' | 'authentication_required' | 'rate_limited' | 'server_error' | 'hang' | 'processing';

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
}

export class StripeStandIn extends StandInServer {
  readonly requests: StripeRequest[] = [];
  /** Faults answered to the next PaymentIntent creations, in order (one each). */
  readonly faults: StripeFault[] = [];
  private readonly customers: StripeCustomer[] = [];
  private readonly replays = new Map<string, { status: number; body: unknown; form: string }>();
  private readonly intents: Record<string, unknown>[] = [];

  constructor(readonly secretKey = `sk_test_${randomBytes(12).toString('hex')}`) {
    super();
  }

  addCustomer(accountId: string, defaultPaymentMethod: string | null = 'pm_card_visa'): StripeCustomer {
    const customer = { id: `cus_${randomBytes(7).toString('hex')}`, accountId, defaultPaymentMethod };
    this.customers.push(customer);
    return customer;
  }

  /** PaymentIntents created (not replays), as Stripe keeps them. */
  get paymentIntents(): Record<string, unknown>[] {
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
        if (replay) return send(replay.status, replay.body, { 'idempotent-replayed': 'true' });
      }
      const fault = this.faults.shift();
      if (fault === 'hang') return; // never answers: the client's timeout decides
      if (fault === 'rate_limited')
        return send(
          429,
          stripeError('invalid_request_error', 'rate_limit', 'Too many requests hit the API too quickly.'),
          { 'retry-after': '1' },
        );
      if (fault === 'server_error')
        return send(500, stripeError('api_error', undefined, 'Something went wrong on Stripe’s end.'));
      const [status, answer] = this.createIntent(request, fault);
      if (typeof key === 'string') this.replays.set(key, { status, body: answer, form: body });
      return send(status, answer);
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

  private search(request: StripeRequest): unknown {
    const match = /^metadata\['switchboard_account_id'\]:'([^']+)'$/.exec(request.query.get('query') ?? '');
    const data = this.customers
      .filter((customer) => match && customer.accountId === match[1])
      .map((customer) => ({
        id: customer.id,
        object: 'customer',
        metadata: { switchboard_account_id: customer.accountId },
        invoice_settings: { default_payment_method: customer.defaultPaymentMethod },
      }));
    return { object: 'search_result', url: '/v1/customers/search', has_more: false, next_page: null, data };
  }

  private createIntent(request: StripeRequest, fault: StripeFault | undefined): [number, unknown] {
    const form = request.form;
    const metadata = Object.fromEntries(
      [...form.entries()]
        .filter(([name]) => name.startsWith('metadata['))
        .map(([name, value]) => [name.slice(9, -1), value]),
    );
    const intent: Record<string, unknown> = {
      id: `pi_${randomBytes(12).toString('hex')}`,
      object: 'payment_intent',
      amount: Number(form.get('amount')),
      currency: form.get('currency'),
      customer: form.get('customer'),
      payment_method: form.get('payment_method'),
      description: form.get('description'),
      confirmation_method: 'automatic',
      metadata,
      livemode: false,
      status: 'succeeded',
    };
    this.intents.push(intent);
    if (fault === 'processing') return [200, { ...intent, status: 'processing' }];
    if (fault === 'card_declined' || fault === 'authentication_required') {
      Object.assign(intent, { status: 'requires_payment_method' });
      const error = stripeError(
        'card_error',
        fault,
        fault === 'card_declined' ? 'Your card has insufficient funds.' : 'This payment requires authentication.',
      );
      Object.assign(error.error, {
        decline_code: fault === 'card_declined' ? 'insufficient_funds' : 'authentication_required',
        payment_intent: intent,
      });
      return [402, error];
    }
    return [200, intent];
  }
}

function stripeError(type: string, code: string | undefined, message: string): { error: Record<string, unknown> } {
  return { error: { type, ...(code ? { code } : {}), message } };
}
