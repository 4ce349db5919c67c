import type { Logger } from '@switchboard/observability';
import { CardSetupService } from './card-setup.service';
import type { StripeCustomersRepository } from './stripe-customers.repository';

const logger = { info: jest.fn(), warn: jest.fn() } as unknown as Logger;
const customers = {
  ofAccount: jest.fn(async () => null),
  ofCustomer: jest.fn(async () => null),
} as unknown as StripeCustomersRepository;
const urls = { successUrl: 'http://127.0.0.1:3000/console/money?card=added', cancelUrl: 'http://x/c' };

describe('CardSetupService without Stripe', () => {
  const service = new CardSetupService(null, customers, logger);

  it('says the simulated processor tops up, with no card to connect', async () => {
    await expect(service.paymentMethod('acct_0123456789abcdefghij')).resolves.toEqual({
      processor: 'simulated',
      card: null,
    });
  });

  it('refuses a card setup with 400 invalid_request saying why', async () => {
    await expect(service.start('acct_0123456789abcdefghij', urls)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('not configured with'),
    });
  });
});

describe('CardSetupService with Stripe, for a test twin', () => {
  it('never reaches Stripe: test mode has no card to connect', async () => {
    const stripe = { customers: { create: jest.fn() }, checkout: { sessions: { create: jest.fn() } } };
    const service = new CardSetupService(stripe as never, customers, logger);
    await expect(service.paymentMethod('acct_test_0123456789abcdefghij')).resolves.toEqual({
      processor: 'simulated',
      card: null,
    });
    await expect(service.start('acct_test_0123456789abcdefghij', urls)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(stripe.customers.create).not.toHaveBeenCalled();
  });
});

describe('CardSetupService.complete, against what Stripe answers', () => {
  const ours = { account_id: 'acct_0123456789abcdefghij', customer_id: 'cus_ours' };
  const setup = { sessionId: 'cs_test_1', customerId: 'cus_ours', setupIntentId: 'seti_1' };
  const stored = {
    ofCustomer: jest.fn(async () => ours),
    setCard: jest.fn(async () => undefined),
  } as unknown as StripeCustomersRepository;
  /** An error as the SDK throws it: its class name as `type`, the HTTP status, Stripe's code and message. */
  const stripeError = (type: string, statusCode: number, message: string, code?: string) =>
    Object.assign(new Error(message), { type, statusCode, code });
  const withStripe = (retrieve: () => Promise<unknown>) => {
    const stripe = { setupIntents: { retrieve: jest.fn(retrieve) }, customers: { update: jest.fn() } };
    return { stripe, service: new CardSetupService(stripe as never, stored, logger) };
  };

  it("settles as refused, with Stripe's reason, a SetupIntent Stripe does not know (404)", async () => {
    const { stripe, service } = withStripe(() =>
      Promise.reject(
        stripeError('StripeInvalidRequestError', 404, "No such setup_intent: 'seti_1'", 'resource_missing'),
      ),
    );
    await expect(service.complete(setup)).resolves.toEqual({
      result: 'refused',
      reason: "Stripe answered 404 resource_missing: No such setup_intent: 'seti_1'",
    });
    expect(stripe.customers.update).not.toHaveBeenCalled();
  });

  it("refuses another customer's SetupIntent, or one made for another account, before attaching anything", async () => {
    for (const intent of [
      { id: 'seti_1', status: 'succeeded', customer: 'cus_theirs', payment_method: 'pm_1', metadata: {} },
      {
        id: 'seti_1',
        status: 'succeeded',
        customer: 'cus_ours',
        payment_method: 'pm_1',
        metadata: { switchboard_account_id: 'acct_zzzzzzzzzzzzzzzzzzzz' },
      },
      {
        id: 'seti_1',
        status: 'succeeded',
        customer: 'cus_ours',
        payment_method: { id: 'pm_1', customer: 'cus_theirs', card: { brand: 'visa', last4: '4242' } },
        metadata: {},
      },
    ]) {
      const { stripe, service } = withStripe(() => Promise.resolve(intent));
      await expect(service.complete(setup)).resolves.toMatchObject({ result: 'refused' });
      expect(stripe.customers.update).not.toHaveBeenCalled();
    }
  });

  it('throws, for the event to come back, when the outcome may change: no answer, 5xx, 429, 409, our key refused', async () => {
    for (const error of [
      stripeError('StripeConnectionError', undefined as never, 'socket hang up'),
      stripeError('StripeAPIError', 500, 'Something went wrong'),
      stripeError('StripeRateLimitError', 429, 'Too many requests'),
      stripeError('StripeRateLimitError', 400, 'Too many requests', 'rate_limit'),
      stripeError('StripeIdempotencyError', 409, 'lock_timeout'),
      stripeError('StripeAuthenticationError', 401, 'Invalid API Key provided.'),
      stripeError('StripePermissionError', 403, 'The provided key does not have access.'),
    ]) {
      const { service } = withStripe(() => Promise.reject(error));
      await expect(service.complete(setup)).rejects.toThrow(error.message);
    }
  });
});
