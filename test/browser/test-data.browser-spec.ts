import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AdminClient, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
  eventually,
  inviteUser,
  launchChromium,
  screenshot,
  seriousAccessibilityProblems,
  startConsoleSystem,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

/**
 * Issue 48, the console's test data switch (docs/adr/0087): the header's "Test data" toggle shows the account's test
 * twin under an orange banner; a number provisioned there is seen only in test mode, and the live data again after.
 */
describe('the web console: switching to test data', () => {
  let system: RunningSystem;
  let browser: Browser;
  let user: { context: BrowserContext; page: Page; problems: string[] };
  let page: Page;

  const numbersTable = () => page.getByTestId('numbers-table');
  const toggle = () => page.getByRole('switch', { name: 'Test data' });
  const banner = () => page.getByTestId('test-banner');

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({ services: ['numbers-billing', 'calls-media'] }),
      launchChromium(),
    ]);
    const admin = new AdminClient(system);
    const accountId = (await admin.createAccount({ name: 'Twin Tacos', balance_cents: 5_000 })).id;
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
    user = await userPage(browser);
    page = user.page;
    await acceptInvite(page, await inviteUser(system, accountId, 'owner@twin.test'), 'a long enough passphrase');
  });

  afterAll(async () => {
    await user?.context.close();
    await browser?.close();
    await system?.stop();
  });

  it('provisions a live number with the toggle off and no banner', async () => {
    await page.getByRole('link', { name: 'Numbers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Numbers' }).waitFor();
    expect(await toggle().isChecked()).toBe(false);
    expect(await banner().count()).toBe(0);
    await page.getByLabel('Business phone').fill('+14155550123');
    await page.getByRole('button', { name: 'Provision number' }).click();
    await page.getByTestId('one-time-secret').waitFor();
    await eventually(
      () => numbersTable().locator('tbody tr').count(),
      (rows) => rows === 1,
    );
  });

  it('switches to test data: banner, empty numbers, a test number seen only there', async () => {
    const liveNumber = (await numbersTable().locator('tbody tr').first().getByRole('link').textContent())!;
    await toggle().click();
    await banner().waitFor();
    expect(await banner().textContent()).toBe('Test data: nothing here is billed or real.');
    expect(await toggle().isChecked()).toBe(true);
    await page.getByText('No numbers yet.').waitFor();

    await page.getByLabel('Business phone').fill('+14155550124');
    await page.getByRole('button', { name: 'Provision number' }).click();
    await page.getByTestId('one-time-secret').waitFor();
    const testNumber = (await numbersTable().locator('tbody tr').first().getByRole('link').textContent())!;
    expect(testNumber).toMatch(/^\+1\d{10}$/);
    expect(testNumber).not.toBe(liveNumber);
    expect(await numbersTable().locator('tbody tr').count()).toBe(1);
    await screenshot(page, 'numbers-test-mode');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Keys: a test-mode page makes test keys by default.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(await page.getByLabel('Mode', { exact: true }).inputValue()).toBe('test');

    // The banner stays on every page; billing shows the twin's $100 less the test number's first month.
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await banner().waitFor();
    await eventually(
      () => page.getByTestId('balance').textContent(),
      (text) => text === '$95.00',
    );
    // Auto top-up acts on the live account: the test page says so instead of offering its form.
    await page.getByTestId('auto-top-up-live-only').waitFor();
    expect(await page.getByLabel('Top up automatically').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Card for auto top-up' }).count()).toBe(0);
    await screenshot(page, 'billing-test-mode');

    // A reload keeps the mode (it is the session's), and switching back shows the live data alone.
    await page.reload();
    await banner().waitFor();
    await toggle().click();
    await eventually(
      () => banner().count(),
      (count) => count === 0,
    );
    await eventually(
      () => page.getByTestId('balance').textContent(),
      (text) => text === '$45.00',
    );
    await page.getByLabel('Top up automatically').waitFor();
    await page.getByRole('heading', { name: 'Card for auto top-up' }).waitFor();
    await page.getByRole('link', { name: 'Numbers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Numbers' }).waitFor();
    await eventually(
      () => numbersTable().locator('tbody tr').allTextContents(),
      (rows) => rows.length === 1 && rows[0].includes(liveNumber),
    );
    expect((await numbersTable().textContent()) ?? '').not.toContain(testNumber);
    expect(user.problems).toEqual([]);
  });
});
