import type { Browser, BrowserContext, Page } from 'playwright-core';
import { StripeStandIn } from '../stand-ins/stripe/stripe-stand-in';
import { AdminClient, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
  consoleUrl,
  inviteUser,
  launchChromium,
  screenshot,
  seriousAccessibilityProblems,
  startConsoleSystem,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

const WEBHOOK_SECRET = 'whsec_browserCardSetup0123456789';

/**
 * Issue 48 in a real browser (docs/adr/0131): the Billing page's "Add a card" sends the owner to Stripe's Checkout
 * (the stand-in's page), where a card is entered; Stripe sends its signed event and the browser back, and the Billing
 * page shows the card's brand and last four digits.
 */
describe("the Billing page's card, through Stripe Checkout", () => {
  const stripe = new StripeStandIn();
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let accountId: string;

  beforeAll(async () => {
    const url = await stripe.start();
    [system, browser] = await Promise.all([
      startConsoleSystem({
        env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
      }),
      launchChromium(),
    ]);
    stripe.webhookUrl = `${system.publicUrl}/provider-webhooks/stripe`;
    stripe.webhookSecret = WEBHOOK_SECRET;
    accountId = (await new AdminClient(system).createAccount({ name: 'Card Co', balance_cents: 5_000 })).id;
    ({ context, page, problems } = await userPage(browser));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
    await stripe.stop();
  });

  it('sends the owner to Checkout from "Add a card" and shows the card after the return', async () => {
    await acceptInvite(page, await inviteUser(system, accountId, 'owner@card.test'), 'plum tuesday lantern 42');
    await page.goto(consoleUrl(system, 'money'));
    await page.getByTestId('no-card').waitFor();
    await screenshot(page, 'billing-no-card');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.waitForURL(new RegExp(`^${stripe.url}/checkout/pay/cs_test_`));
    await screenshot(page, 'billing-checkout-stand-in');
    // A number Checkout does not take is refused on its page; nothing comes back.
    await page.getByLabel('Card number').fill('4000 0000 0000 0000');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('alert').waitFor();
    await page.goBack();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();

    await page.waitForURL(`${consoleUrl(system, 'money')}?card=added`);
    const card = page.getByTestId('card-on-file');
    await card.waitFor();
    expect(await card.textContent()).toBe('Visa ending in 4242');
    await page.getByText('Card connected.').waitFor();
    await expect(page.getByRole('button', { name: 'Replace the card' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'billing-card');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    const customer = stripe.allCustomers.find((c) => c.accountId === accountId);
    expect(customer?.defaultPaymentMethod).toMatch(/^pm_/);
    expect(problems).toEqual([]);
  });
});
