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
