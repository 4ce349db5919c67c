import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AdminClient, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
  consoleRequest,
  consoleUrl,
  eventually,
  inviteUser,
  launchChromium,
  screenshot,
  seriousAccessibilityProblems,
  settled,
  startConsoleSystem,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

/**
 * Issue 16's reports by phone in Chromium against the whole system (docs/adr/0079): an owner makes a number the
 * location's lost-and-found line on the number's page, a caller reports a lost umbrella to the agent (the simulated
 * provider's call report), the report is a claim on the desk with `source` phone, and logging the matching item
 * texts the caller, which the claim page then shows. A system of its own: the calls-media service is needed here and
 * nowhere else in the browser tests.
 */
describe('a report by phone becomes a claim and a text', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let owner: { context: BrowserContext; page: Page; problems: string[] };
  let location: { id: number; name: string };
  let number: { id: string; phone_number: string };
  const caller = '+14155550188';

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({
        services: ['numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'],
        env: { RATE_LIMIT_REQUESTS: '100000' },
      }),
      launchChromium(),
    ]);
    admin = new AdminClient(system);
    const accountId = (await admin.createAccount({ name: 'Harbour Ferries', balance_cents: 5_000 })).id;
    const created = await admin.request('POST', `/admin/accounts/${accountId}/locations`, { name: 'Pier 9 Terminal' });
    expect(created.status).toBe(201);
    location = created.body;
    owner = await userPage(browser);
    await acceptInvite(
      owner.page,
      await inviteUser(system, accountId, 'owner@harbour.test', 'owner'),
      'copper kettle on the moor',
    );
    expect((await admin.request('PUT', '/admin/provider/stock/617', { available: 3 })).status).toBe(200);
    const provisioned = await consoleRequest(owner.page, 'POST', '/numbers', {
      business_phone: '+16175550100',
      area_code: '617',
    });
    expect(provisioned.status).toBe(201);
    number = provisioned.body;
  });

  afterAll(async () => {
    await owner?.context.close();
    await browser?.close();
    await system?.stop();
  });

  afterEach(() => {
    expect(owner.problems.splice(0)).toEqual([]);
  });

  it("the owner makes the number the location's lost-and-found line on the number's page", async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, `numbers/${number.id}`));
    const card = page.getByRole('form', { name: 'Lost-and-found line' });
    await card.getByLabel('Location').waitFor();
    await expect(card.getByLabel('Location').inputValue()).resolves.toBe('');
    await card.getByLabel('Location').selectOption({ label: 'Pier 9 Terminal' });
    await card.getByRole('button', { name: 'Save lost-and-found line' }).click();
    await card.getByText('Lost-item reports on this number now become claims at Pier 9 Terminal.').waitFor();
    const line = await consoleRequest(page, 'GET', `/numbers/${number.id}/lostfound-line`);
    expect(line.body).toEqual({ number_id: number.id, location_id: location.id });
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'number-lostfound-line');
  });

  it('a lost-item report by phone is a claim on the desk, and logging the match texts the caller', async () => {
    const { page } = owner;
    const report = await admin.request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller,
      duration_sec: 80,
      outcome: 'lost_item_report',
      lost_item: {
        category: 'umbrella',
        description: 'Green umbrella with a duck handle',
        color: 'green',
        where_lost: 'Ferry deck',
        caller_name: 'Sam Lee',
      },
    });
    expect(report.status).toBe(202);

    // The claim crosses services by event: wait for it on the API before opening the desk.
    await eventually(
      async () => (await consoleRequest(page, 'GET', `/lostfound/claims?location_id=${location.id}`)).body.total,
      (total) => total === 1,
    );
    await page.goto(consoleUrl(system, `lostfound/claims?location=${location.id}`));
    const row = page.getByTestId('claims-table').locator('tbody tr', { hasText: 'Sam Lee' });
    await row.waitFor();
    const claimId = Number(await row.getAttribute('data-claim-id'));
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: `Claim #${claimId}` }).waitFor();
    await expect(page.locator('.page-header').textContent()).resolves.toMatch(/\(phone\)/);
    const facts = page.getByTestId('claim-facts');
    await expect(facts.textContent()).resolves.toContain(caller);
    await facts.getByText('No text sent yet.').waitFor();

    await page.goto(consoleUrl(system, `lostfound?location=${location.id}`));
    const form = page.getByRole('form', { name: 'Log a found item' });
    await form.getByLabel('What is it?').fill('Green umbrella, duck-head handle');
    await form.getByLabel('Category').fill('umbrella');
    await form.getByLabel('Colour').fill('green');
    await form.getByLabel('Where found').fill('Ferry deck');
    await form.getByRole('button', { name: 'Log item' }).click();
    await page.getByText(/Item #\d+ \(umbrella\) is logged/).waitFor();

    const texts = await eventually(
      async () => (await admin.request('GET', `/admin/sms?to=${encodeURIComponent(caller)}`)).body.data,
      (data: { body: string }[]) => data.length > 0,
    );
    expect(texts).toEqual([{ to: caller, body: expect.stringContaining('umbrella'), sent_at: expect.any(String) }]);

    await page.goto(consoleUrl(system, `lostfound/claims/${claimId}?location=${location.id}`));
    const sent = page.getByTestId('claim-texts');
    await sent.waitFor();
    await expect(sent.textContent()).resolves.toContain(texts[0].body);
    // Still one claim for the one call.
    expect((await consoleRequest(page, 'GET', `/lostfound/claims?location_id=${location.id}`)).body.total).toBe(1);
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-phone-claim');
  });
});
